import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { liveMessages, type AdminLiveClass } from '../../../contract/live';
import type { LiveAttendanceStudent } from '../../../contract/live-attendance';
import { fakeServer, labelInNameMismatches, renderRoute, testCourse } from '../../test-utils';
import LiveClassesPage from './LiveClassesPage';
import LiveClassPage from './LiveClassPage';

beforeEach(() => notifications.clean());

const course = testCourse({ _id: 'c1', name: 'JavaScript', coursecode: 'JS' });

const KEY = '0123456789abcdef0123456789abcdef';
const klass = (
  id: string,
  title: string,
  status: AdminLiveClass['status'],
  startsAt: string,
): AdminLiveClass => ({
  _id: id,
  videoId: `v-${id}`,
  courseId: 'c1',
  title,
  description: 'We code together.',
  startsAt,
  minutes: 60,
  status,
  ingest: {
    srtUrl: `srt://live.school.test:9710?streamid=${id}&passphrase=${KEY}`,
    rtmpUrl: 'rtmp://live.school.test:1935/live',
    streamKey: KEY,
  },
  recording: null,
});

function attendance(id: string, students: LiveAttendanceStudent[]) {
  return {
    class: { _id: id, title: 'A class', startsAt: '2026-11-20T10:00:00.000Z', minutes: 60, status: 'ended' },
    students,
    summary: {
      students: students.length,
      joined: students.filter((s) => s.joinedAt).length,
      watchedRecording: students.filter((s) => s.recordingMinutes > 0).length,
    },
  };
}

/** The class page of `id` (no one attended yet) over `list`, the admin's classes. */
function openClassPage(id: string, list: AdminLiveClass[]) {
  fakeServer({
    'GET /api/admin/video/courses': () => ({ body: { course: [course] } }),
    'GET /api/admin/live-classes': () => ({ body: { classes: list } }),
    [`GET /api/admin/live-classes/${id}/attendance`]: () => ({ body: attendance(id, []) }),
  });
  renderRoute(<LiveClassPage />, { path: '/adminlive/:classId', url: `/adminlive/${id}` });
}

function school(
  initial = [
    klass('k1', 'Closures, live', 'live', '2026-11-29T10:00:00.000Z'),
    klass('k2', 'Async, live', 'scheduled', '2026-12-02T10:00:00.000Z'),
    { ...klass('k3', 'Arrays, live', 'ended', '2026-11-20T10:00:00.000Z'), recording: { state: 'done' } },
  ],
) {
  let list = initial;
  const server = fakeServer({
    'GET /api/admin/video/courses': () => ({ body: { course: [course] } }),
    'GET /api/admin/live-classes': () => ({ body: { classes: list } }),
    'POST /api/admin/live-classes': (init) => {
      const body = JSON.parse(String(init?.body)) as { startsAt: string; title: string };
      if (new Date(body.startsAt).getUTCHours() < 4)
        return { status: 400, body: { message: liveMessages.outsideHours('10:00–22:00 Asia/Kolkata') } };
      const created = klass('k9', body.title, 'scheduled', body.startsAt);
      list = [...list, created];
      return { status: 201, body: created };
    },
    'PATCH /api/admin/live-classes/k2': (init) => {
      const body = JSON.parse(String(init?.body)) as { title: string };
      list = list.map((c) => (c._id === 'k2' ? { ...c, ...body } : c));
      return { body: list.find((c) => c._id === 'k2') };
    },
    'DELETE /api/admin/live-classes/k2': () => {
      list = list.filter((c) => c._id !== 'k2');
      return { body: { message: liveMessages.deleted } };
    },
    'GET /api/admin/live-classes/k2/attendance': () => ({ body: attendance('k2', []) }),
    'GET /api/admin/live-classes/k3/attendance': () => ({
      body: attendance('k3', [
        {
          studentId: 's1',
          name: 'Kavya Menon',
          rollno: 'JS-024',
          username: 'kavya',
          joinedAt: '2026-11-20T10:02:00.000Z',
          liveMinutes: 52,
          recordingMinutes: 0,
        },
        {
          studentId: 's2',
          name: 'Ravi Kumar',
          rollno: 'JS-025',
          username: 'ravi',
          joinedAt: null,
          liveMinutes: 0,
          recordingMinutes: 31,
        },
      ]),
    }),
    'POST /api/admin/live-classes/k2/key': () => {
      const next = 'fedcba9876543210fedcba9876543210';
      list = list.map((c) =>
        c._id === 'k2'
          ? { ...c, ingest: { ...c.ingest, streamKey: next, srtUrl: c.ingest.srtUrl.replace(KEY, next) } }
          : c,
      );
      return { body: list.find((c) => c._id === 'k2') };
    },
  });
  const sent = (method: string, path: string) =>
    server.calls.filter((c) => c.method === method && c.path === path);
  return { sent };
}

/** The screen with the school's classes, and the dialog a row's button opens. */
async function openDialog(button: string, title: string) {
  const user = userEvent.setup();
  const { sent } = school();
  renderRoute(<LiveClassesPage />, { path: '/adminlive' });
  await user.click(await screen.findByRole('button', { name: button }));
  return { user, sent, dialog: await screen.findByRole('dialog', { name: title }) };
}

describe('the live classes screen', () => {
  it('lists the classes live now, upcoming and ended, each linking to its page', async () => {
    school();
    renderRoute(<LiveClassesPage />, { path: '/adminlive' });
    expect(screen.getByLabelText('Loading the live classes')).toBeInTheDocument();
    const live = await screen.findByRole('region', { name: /Live now/ });
    expect(within(live).getByRole('link', { name: 'Closures, live' })).toHaveAttribute(
      'href',
      '/adminlive/k1',
    );
    // A live class is not deleted from here (stop the encoder first); an ended one is not edited.
    expect(within(live).queryByRole('button', { name: 'Delete Closures, live' })).toBeNull();
    const upcoming = screen.getByRole('region', { name: /Upcoming/ });
    expect(within(upcoming).getByText('Async, live')).toBeInTheDocument();
    const ended = screen.getByRole('region', { name: /Ended/ });
    expect(within(ended).queryByRole('button', { name: 'Edit Arrays, live' })).toBeNull();
    expect(labelInNameMismatches()).toEqual([]);
  });

  it('says so when there is no class', async () => {
    school([]);
    renderRoute(<LiveClassesPage />, { path: '/adminlive' });
    expect(await screen.findByText('No live classes yet')).toBeInTheDocument();
  });

  it('shows the load failure with Try again', async () => {
    fakeServer({
      'GET /api/admin/video/courses': () => ({ body: { course: [course] } }),
      'GET /api/admin/live-classes': () => ({ status: 500, body: { message: 'boom' } }),
    });
    renderRoute(<LiveClassesPage />, { path: '/adminlive' });
    expect(await screen.findByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it("schedules a class, and shows the server's opening-hours refusal under the form", async () => {
    const user = userEvent.setup();
    const { sent } = school();
    renderRoute(<LiveClassesPage />, { path: '/adminlive' });
    await screen.findByRole('region', { name: /Live now/ });

    await user.click(screen.getByRole('button', { name: 'Schedule class' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Choose the course.');

    await user.click(screen.getByRole('combobox', { name: 'Course' }));
    await user.click(await screen.findByRole('option', { name: 'JavaScript - Batch 4', hidden: true }));
    await user.type(screen.getByRole('textbox', { name: 'Title' }), 'Night owls');
    const start = screen.getByLabelText(/Starts at/);
    // 02:00 UTC is outside the school's hours (the fake server's rule).
    await user.type(start, toLocal('2026-12-03T02:00:00Z'));
    await user.click(screen.getByRole('button', { name: 'Schedule class' }));
    expect(
      await screen.findByText('Classes start within the opening hours (10:00–22:00 Asia/Kolkata).', {
        selector: '[role="alert"]',
      }),
    ).toBeInTheDocument();

    await user.clear(start);
    await user.type(start, toLocal('2026-12-03T06:00:00Z'));
    await user.click(screen.getByRole('button', { name: 'Schedule class' }));
    await waitFor(() => expect(sent('POST', '/api/admin/live-classes')).toHaveLength(2));
    expect(sent('POST', '/api/admin/live-classes')[1]!.body).toEqual({
      courseId: 'c1',
      title: 'Night owls',
      description: '',
      startsAt: '2026-12-03T06:00:00.000Z',
      minutes: 60,
    });
    expect(await screen.findByRole('link', { name: 'Night owls' })).toBeInTheDocument();
  });

  it('edits a class in a dialog, sending only what changed', async () => {
    const { user, sent, dialog } = await openDialog('Edit Async, live', 'Edit the class');
    const title = within(dialog).getByRole('textbox', { name: 'Title' });
    await user.clear(title);
    await user.type(title, 'Async and await, live');
    await user.click(within(dialog).getByRole('button', { name: 'Save class' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sent('PATCH', '/api/admin/live-classes/k2').map((c) => c.body)).toEqual([
      { title: 'Async and await, live' },
    ]);
    expect(await screen.findByRole('link', { name: 'Async and await, live' })).toBeInTheDocument();
  });

  it('deletes a class only after the confirmation', async () => {
    const { user, sent, dialog } = await openDialog('Delete Async, live', 'Delete this class?');
    expect(sent('DELETE', '/api/admin/live-classes/k2')).toHaveLength(0);
    // Cancel has the focus: Enter does not delete.
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Async, live' })).not.toBeInTheDocument());
    expect(sent('DELETE', '/api/admin/live-classes/k2')).toHaveLength(1);
  });
});

describe("a class's page", () => {
  it('hides the key and the SRT address until shown, copies them, and sets a new key after a confirmation', async () => {
    const user = userEvent.setup();
    const { sent } = school();
    renderRoute(<LiveClassPage />, { path: '/adminlive/:classId', url: '/adminlive/k2' });
    expect(await screen.findByRole('heading', { name: 'Async, live' })).toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(KEY);
    expect(screen.getByText('rtmp://live.school.test:1935/live')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy the Stream key' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Show the key' }));
    expect(screen.getByTestId('ingest-Stream key')).toHaveTextContent(KEY);
    expect(screen.getByTestId('ingest-SRT address')).toHaveTextContent(`passphrase=${KEY}`);

    await user.click(screen.getByRole('button', { name: 'New stream key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Set a new stream key?' });
    expect(sent('POST', '/api/admin/live-classes/k2/key')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'New key' }));
    await waitFor(() =>
      expect(screen.getByTestId('ingest-Stream key')).toHaveTextContent('fedcba9876543210fedcba9876543210'),
    );
    expect(sent('POST', '/api/admin/live-classes/k2/key')).toHaveLength(1);
    expect(labelInNameMismatches()).toEqual([]);
  });

  it('shows who attended an ended class, with the CSV download, and no ingest', async () => {
    school();
    renderRoute(<LiveClassPage />, { path: '/adminlive/:classId', url: '/adminlive/k3' });
    expect(await screen.findByRole('heading', { name: 'Arrays, live' })).toBeInTheDocument();
    const section = await screen.findByRole('region', { name: 'Attendance' });
    expect(await within(section).findByTestId('attendance-summary')).toHaveTextContent(
      '1 of 2 students joined live; 1 watched the recording.',
    );
    const kavya = within(section).getByRole('row', { name: /Kavya Menon/ });
    expect(kavya).toHaveTextContent('52 min');
    const ravi = within(section).getByRole('row', { name: /Ravi Kumar/ });
    expect(ravi).toHaveTextContent('No');
    expect(ravi).toHaveTextContent('31 min');
    expect(within(section).getByRole('link', { name: 'Download CSV' })).toHaveAttribute(
      'href',
      '/api/admin/live-classes/k3/attendance?format=csv',
    );
    expect(screen.queryByRole('region', { name: 'Streaming from OBS' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
  });

  it('says when the class has no students yet', async () => {
    school();
    renderRoute(<LiveClassPage />, { path: '/adminlive/:classId', url: '/adminlive/k2' });
    expect(await screen.findByText('No students in this course')).toBeInTheDocument();
  });

  it('says so for a class that is not in the list', async () => {
    school();
    renderRoute(<LiveClassPage />, { path: '/adminlive/:classId', url: '/adminlive/nope' });
    expect(await screen.findByText(liveMessages.notFound)).toBeInTheDocument();
  });
});

describe("an ended class's recording", () => {
  const ended = (id: string, title: string, recording: AdminLiveClass['recording']) => ({
    ...klass(id, title, 'ended', '2026-11-20T10:00:00.000Z'),
    recording,
  });
  const classes = [
    ended('r1', 'Waiting class', { state: 'waiting' }),
    ended('r2', 'Packaging class', { state: 'packaging', step: 'renditions', part: 2, parts: 3 }),
    ended('r3', 'Ready class', { state: 'done' }),
    ended('r4', 'Failed class', { state: 'failed', message: 'the live recording has no playlist' }),
    ended('r5', 'Retrying class', { state: 'waiting', message: 'S3 said 503 Slow Down' }),
  ];
  const rowOf = (title: string) => screen.getByRole('row', { name: new RegExp(title) });

  it('says on each row where the packaging is, in words', async () => {
    fakeServer({
      'GET /api/admin/video/courses': () => ({ body: { course: [course] } }),
      'GET /api/admin/live-classes': () => ({ body: { classes } }),
    });
    renderRoute(<LiveClassesPage />, { path: '/adminlive' });
    await screen.findByRole('link', { name: 'Packaging class' });
    // No note after it (the next cell's date follows): its first attempt has not failed.
    expect(rowOf('Waiting class')).toHaveTextContent(/Recording waiting to be packaged\d/);
    expect(rowOf('Retrying class')).toHaveTextContent(
      'Recording waiting to be packaged (after a failed attempt)',
    );
    expect(rowOf('Packaging class')).toHaveTextContent(
      'Preparing the recording: step 3 of 4 (renditions 2 of 3)',
    );
    expect(rowOf('Ready class')).toHaveTextContent('Recording ready');
    expect(rowOf('Failed class')).toHaveTextContent(
      'Recording packaging failed' +
        'The recording still plays as streamed. Reason: the live recording has no playlist.',
    );
    // One line a row (the class page's own test shows none for a class not ended).
    expect(screen.getAllByTestId('recording-line')).toHaveLength(classes.length);
    expect(labelInNameMismatches()).toEqual([]);
  });

  it('asks again every 2 s while a recording is packaging, and shows it ready', async () => {
    let list = [ended('r2', 'Packaging class', { state: 'packaging', step: 'source' })];
    const server = fakeServer({
      'GET /api/admin/video/courses': () => ({ body: { course: [course] } }),
      'GET /api/admin/live-classes': () => {
        const answer = { body: { classes: list } };
        list = [ended('r2', 'Packaging class', { state: 'done' })];
        return answer;
      },
    });
    renderRoute(<LiveClassesPage />, { path: '/adminlive' });
    expect(
      await screen.findByText(/Preparing the recording: step 1 of 4 \(saving the source\)/),
    ).toBeInTheDocument();
    await waitFor(() => expect(rowOf('Packaging class')).toHaveTextContent('Recording ready'), {
      timeout: 4000,
    });
    const asked = server.calls.filter((c) => c.path === '/api/admin/live-classes').length;
    // Nothing on its way any more: back to the list's slow pace (30 s).
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(server.calls.filter((c) => c.path === '/api/admin/live-classes')).toHaveLength(asked);
  });

  it("shows the class page's progress bar while packaging", async () => {
    openClassPage('r2', classes);
    const panel = await screen.findByTestId('recording-panel');
    expect(panel).toHaveTextContent('Preparing the recording');
    expect(within(panel).getByRole('progressbar', { name: 'Recording packaging' })).toHaveAttribute(
      'aria-valuetext',
      'Preparing the recording: Step 3 of 4 (renditions 2 of 3)',
    );
    expect(panel).toHaveTextContent(
      'Step 3 of 4 (renditions 2 of 3). Meanwhile the recording plays as streamed.',
    );
  });

  it('says on the class page when the recording waits, and why its last attempt failed', async () => {
    openClassPage('r5', classes);
    const panel = await screen.findByTestId('recording-panel');
    expect(panel).toHaveTextContent('Recording waiting to be packaged');
    expect(panel).toHaveTextContent(
      'The last attempt failed (S3 said 503 Slow Down); it will be tried again. Meanwhile the recording plays as streamed.',
    );
    expect(within(panel).getByRole('progressbar', { name: 'Recording packaging' })).toBeInTheDocument();
  });

  it('says on the class page that the recording is ready', async () => {
    openClassPage('r3', classes);
    const panel = await screen.findByTestId('recording-panel');
    expect(panel).toHaveTextContent('Recording readyThe recording is packaged as a lecture of the course.');
    expect(within(panel).queryByRole('progressbar')).toBeNull();
  });

  it('says on the class page why the packaging failed, and that the recording still plays', async () => {
    openClassPage('r4', classes);
    const panel = await screen.findByTestId('recording-panel');
    expect(panel).toHaveTextContent(
      'Recording packaging failedReason: the live recording has no playlist. The recording still plays as streamed.',
    );
    expect(screen.getByRole('link', { name: 'Watch the recording' })).toHaveAttribute(
      'href',
      '/course/c1?video=v-r4',
    );
  });

  it('says a class ended without a stream has no recording', async () => {
    openClassPage('r6', [ended('r6', 'Unstreamed class', null)]);
    expect(await screen.findByText('No recording: nothing was streamed to this class.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Watch the recording' })).toBeNull();
    expect(screen.queryByTestId('recording-panel')).toBeNull();
  });

  it('shows no recording for a class not ended', async () => {
    school();
    renderRoute(<LiveClassPage />, { path: '/adminlive/:classId', url: '/adminlive/k1' });
    expect(await screen.findByRole('heading', { name: 'Closures, live' })).toBeInTheDocument();
    expect(screen.queryByTestId('recording-panel')).toBeNull();
  });
});

/** An instant as the datetime-local field takes it, in the test's zone. */
function toLocal(iso: string) {
  const d = new Date(iso);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
}
