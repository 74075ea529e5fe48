import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { StudentCourse } from '../../contract/courses';
import { fakeServer, renderRoute } from '../test-utils';
import DashboardPage from './DashboardPage';

const DAY = 86_400_000;

function course(overrides: Partial<StudentCourse>): StudentCourse {
  return {
    courseId: 'c1',
    name: 'Full Stack Web Development',
    description: 'HTML, CSS, JavaScript, React and Node.',
    thumbnail: null,
    batch: 12,
    startdate: '2026-01-05',
    enddate: '2026-12-18',
    accessexpiration: new Date(Date.now() + 30 * DAY).toISOString(),
    accessrevoked: false,
    accessrevokedreason: null,
    access: 'active',
    progress: { total: 4, completed: 1, nextVideoId: 'v2', watchedShare: 0.375 },
    ...overrides,
  };
}

function renderDashboard() {
  return renderRoute(<DashboardPage />, {
    path: '/dashboard',
    extra: [{ path: '/course/:courseId', element: <p>course page</p> }],
  });
}

describe('dashboard', () => {
  it('shows two skeletons while the courses load, then the heading texts', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    fakeServer({ 'GET /api/courses': () => ({ body: { courses: [] } }) });
    const slow = globalThis.fetch;
    globalThis.fetch = async (...args) => {
      await gate;
      return slow(...args);
    };
    renderDashboard();
    expect(screen.getByRole('heading', { name: 'Courses' })).toBeInTheDocument();
    expect(screen.getByText('Continue your learning journey.')).toBeInTheDocument();
    expect(screen.getAllByTestId('card-skeleton')).toHaveLength(2);
    release();
    expect(await screen.findByText('No courses enrolled yet.')).toBeInTheDocument();
    expect(screen.queryByTestId('card-skeleton')).not.toBeInTheDocument();
  });

  it('opens an active course at its next unfinished video, with the progress on the card', async () => {
    fakeServer({ 'GET /api/courses': () => ({ body: { courses: [course({})] } }) });
    const user = userEvent.setup();
    const { router } = renderDashboard();
    const card = await screen.findByRole('link', { name: /Full Stack Web Development/ });
    expect(card).toHaveAttribute('href', '/course/c1?video=v2');
    expect(card).toHaveTextContent('Batch: 12');
    expect(card).toHaveTextContent('5 Jan 2026 – 18 Dec 2026');
    expect(card).toHaveTextContent('1 / 4 videos completed');
    expect(card).toHaveTextContent('Continue');
    expect(within(card).getByRole('progressbar', { name: '38% of the course watched' })).toBeInTheDocument();
    expect(card).toHaveTextContent('Course watched38%');
    await user.click(card);
    expect(await screen.findByText('course page')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?video=v2');
  });

  it('dims an expired course and explains it in the Access Expired modal instead of opening it', async () => {
    const expiredAt = new Date(Date.now() - 2 * DAY);
    fakeServer({
      'GET /api/courses': () => ({
        body: {
          courses: [
            course({
              courseId: 'c2',
              name: 'Data Structures',
              accessexpiration: expiredAt.toISOString(),
              access: 'expired',
            }),
          ],
        },
      }),
    });
    const user = userEvent.setup();
    const { router } = renderDashboard();
    const card = await screen.findByRole('button', { name: /Data Structures/ });
    expect(card).toHaveAttribute('data-inactive');
    expect(card).toHaveTextContent('Expired');
    expect(screen.queryByRole('link', { name: /Data Structures/ })).not.toBeInTheDocument();

    await user.click(card);
    const modal = await screen.findByRole('dialog', { name: 'Access Expired' });
    const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' }).format(
      expiredAt,
    );
    expect(modal).toHaveTextContent('Course: Data Structures');
    expect(modal).toHaveTextContent('Reason: No reason provided');
    expect(modal).toHaveTextContent(`This course expired on ${day}.`);
    expect(modal).toHaveTextContent('Please contact the administrator to regain access.');
    await user.click(within(modal).getByRole('button', { name: 'Close' }));
    // Mantine keeps a closing modal for its transition.
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('treats a revoked course as inactive even before its expiry, with the reason', async () => {
    fakeServer({
      'GET /api/courses': () => ({
        body: {
          courses: [
            course({
              courseId: 'c3',
              name: 'DevOps',
              accessrevoked: true,
              access: 'revoked',
              accessrevokedreason: 'Fees pending',
            }),
            course({ courseId: 'c1' }),
          ],
        },
      }),
    });
    const user = userEvent.setup();
    renderDashboard();
    const cards = await screen.findAllByRole('link');
    expect(cards.map((c) => c.textContent)).toEqual([expect.stringContaining('Full Stack')]);
    const revoked = screen.getByRole('button', { name: /DevOps/ });
    expect(revoked).toHaveTextContent('Revoked');
    await user.click(revoked);
    expect(await screen.findByRole('dialog', { name: 'Access Expired' })).toHaveTextContent(
      'Reason: Fees pending',
    );
  });

  it('shows the classes live now in the open courses, with Watch live into the class', async () => {
    const klass = (id: string, status: string) => ({
      _id: id,
      videoId: `v-${id}`,
      title: `Class ${id}`,
      startsAt: new Date().toISOString(),
      minutes: 60,
      status,
    });
    const server = fakeServer({
      'GET /api/courses': () => ({
        body: {
          courses: [
            course({ courseId: 'c1' }),
            course({ courseId: 'c2', name: 'Databases' }),
            course({ courseId: 'c3', name: 'DevOps', accessrevoked: true, access: 'revoked' }),
          ],
        },
      }),
      'GET /api/courses/c1/live-classes': () => ({ body: [klass('k1', 'live'), klass('k2', 'scheduled')] }),
      'GET /api/courses/c2/live-classes': () => ({ body: [klass('k3', 'ended')] }),
    });
    renderDashboard();
    const live = await screen.findByRole('region', { name: 'Live now' });
    expect(within(live).getByLabelText('Live now: Class k1')).toHaveTextContent('Full Stack Web Development');
    expect(within(live).getByRole('link', { name: 'Watch live: Class k1' })).toHaveAttribute(
      'href',
      '/course/c1?video=v-k1',
    );
    expect(within(live).queryByText('Class k2')).toBeNull();
    expect(within(live).queryByText('Class k3')).toBeNull();
    // A course the student cannot open is not asked.
    expect(server.calls.some((c) => c.path === '/api/courses/c3/live-classes')).toBe(false);
  });

  it('shows no Live now while no class is live', async () => {
    fakeServer({
      'GET /api/courses': () => ({ body: { courses: [course({ courseId: 'c1' })] } }),
      'GET /api/courses/c1/live-classes': () => ({ body: [] }),
    });
    renderDashboard();
    await screen.findByRole('link', { name: /Full Stack Web Development/ });
    expect(screen.queryByRole('region', { name: 'Live now' })).toBeNull();
  });

  it("says 'Failed to load courses' when the list cannot be loaded", async () => {
    fakeServer({ 'GET /api/courses': () => ({ status: 500, body: {} }) });
    renderDashboard();
    // One retry first, as for any failed load.
    expect(await screen.findAllByText('Failed to load courses', {}, { timeout: 4_000 })).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
  it("shows the course's completion as the server counts it: lectures complete, then the course", async () => {
    const lecture = (videoId: string, complete: boolean) => ({
      videoId,
      watched: complete ? 1 : 0.5,
      checkpointsPassed: complete ? 1 : 0,
      checkpointsRequired: 1,
      complete,
    });
    let complete = false;
    fakeServer({
      'GET /api/courses': () => ({ body: { courses: [course({ courseId: 'c1' })] } }),
      'GET /api/courses/c1/completion': () => ({
        body: { complete, lectures: [lecture('v1', true), lecture('v2', complete)] },
      }),
    });
    const first = renderDashboard();
    expect(await screen.findByTestId('course-completion')).toHaveTextContent(
      '1 / 2 lectures complete (checkpoints included)',
    );
    first.unmount();
    complete = true;
    renderDashboard();
    expect(await screen.findByTestId('course-complete')).toHaveTextContent('Course complete');
  });
});
