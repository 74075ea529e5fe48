import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { traceRunMessages, type TraceRun, type TraceRunsResponse } from '../../../contract/trace-runs';
import { fakeServer, renderRoute } from '../../test-utils';
import TracePage from './TracePage';

const queued: TraceRun = {
  id: 'r1',
  createdAt: '2026-03-02T08:00:00.000Z',
  createdBy: 'Ops Admin',
  fileName: 'leak.mp4',
  sizeBytes: 4_200_000,
  status: 'queued',
  progress: 0,
  phase: null,
  video: null,
  startedAt: null,
  finishedAt: null,
  result: null,
  error: null,
};
const running: TraceRun = {
  ...queued,
  status: 'running',
  progress: 0.4,
  phase: 'Decoding leak.mp4 (114 s)…',
};
const named: TraceRun = {
  ...queued,
  status: 'done',
  progress: 1,
  finishedAt: '2026-03-02T08:02:00.000Z',
  result: {
    kind: 'matched',
    videoId: 'v1',
    title: 'Closures',
    startsAt: 0,
    decided: 38,
    undecided: 0,
    threshold: 37,
    accused: [
      {
        code: '7K3MQ9XD',
        score: 38,
        agreements: 38,
        decided: 38,
        logInnocentChance: -26.3,
        startedAt: '2026-03-01T15:00:00.000Z',
        ip: '10.0.0.7',
        student: { id: 's1', name: 'Asha Rao', rollno: 'BC24-017', username: 'asha' },
      },
    ],
    reason: null,
  },
};

/** The second factor was proven a minute ago: the upload goes without asking for a code. */
const freshFactor = () => ({
  body: {
    enrolled: true,
    required: true,
    app: true,
    recoveryCodesLeft: 10,
    passkeys: 0,
    freshUntil: new Date(Date.now() + 9 * 60_000).toISOString(),
  },
});

const listOf = (runs: TraceRun[], marked = true): TraceRunsResponse => ({
  runs,
  markedVideos: marked ? [{ id: 'v1', title: 'Closures' }] : [],
  marksOn: marked,
  maxBytes: 2 * 1024 ** 3,
});

const leak = () => new File([new Uint8Array(64 * 1024)], 'leak.mp4', { type: 'video/mp4' });

/** The page with its file picked (Mantine's FileInput keeps the real input hidden). */
async function pickFile(user: ReturnType<typeof userEvent.setup>, file = leak()) {
  await screen.findByRole('button', { name: 'Trace the copy' });
  const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
  expect(input.accept).toBe('video/*,.mp4,.ts,.mkv,.mov,.webm');
  await user.upload(input, file);
}

describe('Trace a downloaded copy', () => {
  it('uploads the copy with a progress bar, follows the trace and names the student; Recent traces lists it', async () => {
    let release!: () => void;
    const uploaded = new Promise<void>((resolve) => (release = resolve));
    const states = [running, named];
    let list = listOf([]);
    const server = fakeServer({
      'GET /api/admin/mfa': freshFactor,
      'GET /api/admin/trace-runs': () => ({ body: list }),
      'POST /api/admin/trace-runs': async () => {
        await uploaded;
        return { status: 202, body: { message: traceRunMessages.queued, run: queued } };
      },
      'GET /api/admin/trace-runs/r1': () => {
        const run = states.length > 1 ? states.shift()! : states[0]!;
        if (run.status === 'done') list = listOf([run]);
        return { body: { run } };
      },
    });
    const user = userEvent.setup();
    renderRoute(<TracePage />, { path: '/admintrace' });
    expect(await screen.findByText('No traces yet.')).toBeInTheDocument();

    await pickFile(user);
    await user.click(screen.getByRole('combobox', { name: 'Video (optional)' }));
    await user.click(await screen.findByRole('option', { name: 'Closures', hidden: true }));
    await user.click(screen.getByRole('button', { name: 'Trace the copy' }));

    // Half of the file is out, the server has not answered yet.
    const bar = await screen.findByRole('progressbar', { name: 'Upload progress' });
    expect(bar).toHaveAttribute('aria-valuetext', '50% uploaded');
    expect(screen.getByText(/Uploading 32\.0 KB of 64\.0 KB \(50%\)/)).toBeInTheDocument();
    release();

    expect(await screen.findByText('Decoding leak.mp4 (114 s)…', {}, { timeout: 5_000 })).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Trace progress' })).toHaveAttribute(
      'aria-valuetext',
      'Decoding leak.mp4 (114 s)…: 40%',
    );
    const session = await screen.findByRole('region', { name: 'Session 7K3M-Q9XD' }, { timeout: 5_000 });
    for (const text of ['Asha Rao', 'BC24-017', '38 of 38 segments agree', '38'])
      expect(within(session).getAllByText(text).length).toBeGreaterThan(0);
    expect(screen.getByText(/matches “Closures” from 0:00/)).toBeInTheDocument();

    const form = server.calls.find((c) => c.method === 'POST')!.body as Record<string, unknown>;
    expect(form.videoId).toBe('v1');
    expect((form.file as File).name).toBe('leak.mp4');

    // jsdom matches no media query: the phone's cards.
    const recent = screen.getByRole('region', { name: 'Recent traces' });
    const item = await within(recent).findByRole('listitem');
    expect(item).toHaveTextContent(/leak\.mp4.*Done.*Ops Admin.*Asha Rao \(BC24-017\)/);
  });

  it('says why nobody was named', async () => {
    const nobody: TraceRun = {
      ...named,
      result: { kind: 'no-match', videoId: null, reason: 'This file matches none of the marked videos.' },
    };
    fakeServer({
      'GET /api/admin/mfa': freshFactor,
      'GET /api/admin/trace-runs': () => ({ body: listOf([]) }),
      'POST /api/admin/trace-runs': () => ({
        status: 202,
        body: { message: traceRunMessages.queued, run: nobody },
      }),
      'GET /api/admin/trace-runs/r1': () => ({ body: { run: nobody } }),
    });
    const user = userEvent.setup();
    renderRoute(<TracePage />, { path: '/admintrace' });
    await pickFile(user);
    await user.click(await screen.findByRole('button', { name: 'Trace the copy' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('No session found');
    expect(alert).toHaveTextContent('This file matches none of the marked videos.');
  });

  it("shows the server's reason when it refuses the file, and asks for a file before sending anything", async () => {
    const server = fakeServer({
      'GET /api/admin/mfa': freshFactor,
      'GET /api/admin/trace-runs': () => ({ body: listOf([]) }),
      'POST /api/admin/trace-runs': () => ({ status: 400, body: { message: traceRunMessages.notAVideo } }),
    });
    const user = userEvent.setup();
    renderRoute(<TracePage />, { path: '/admintrace' });
    await user.click(await screen.findByRole('button', { name: 'Trace the copy' }));
    expect(await screen.findByText(traceRunMessages.fileMissing)).toBeInTheDocument();
    expect(server.calls.some((c) => c.method === 'POST')).toBe(false);

    await pickFile(user, new File(['not a video'], 'notes.mp4'));
    await user.click(screen.getByRole('button', { name: 'Trace the copy' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(traceRunMessages.uploadFailed);
    expect(alert).toHaveTextContent(traceRunMessages.notAVideo);
  });

  it('says so instead of offering the upload when marks are off and no video is marked', async () => {
    fakeServer({ 'GET /api/admin/trace-runs': () => ({ body: listOf([], false) }) });
    renderRoute(<TracePage />, { path: '/admintrace' });
    expect(await screen.findByText(/Forensic marks are off \(FORENSIC_MARKS\)/)).toBeInTheDocument();
    expect(document.querySelector('input[type="file"]')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Trace the copy' })).not.toBeInTheDocument();
  });

  it('offers to try again when the traces cannot be loaded', async () => {
    fakeServer({ 'GET /api/admin/trace-runs': () => ({ status: 500, body: { message: 'boom' } }) });
    renderRoute(<TracePage />, { path: '/admintrace' });
    expect((await screen.findAllByText(traceRunMessages.loadFailed)).length).toBeGreaterThan(0);
    expect(screen.getAllByRole('button', { name: 'Try again' }).length).toBeGreaterThan(0);
  });
});
