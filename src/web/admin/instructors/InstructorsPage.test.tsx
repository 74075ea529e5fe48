import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { instructorMessages } from '../../../contract/instructors';
import { fakeServer, renderRoute, testCourse } from '../../test-utils';
import { AdminShell } from '../AdminShell';
import InstructorsPage from './InstructorsPage';

beforeEach(() => notifications.clean());

const course = (id: string, name: string, coursecode: string) => testCourse({ _id: id, name, coursecode });
const courses = [course('c1', 'React', 'RCT'), course('c2', 'Databases', 'DB')];

const tutor = {
  _id: 'u1',
  username: 'meera',
  email: 'meera@school.test',
  name: 'Meera Iyer',
  createdAt: '2026-03-01T08:00:00.000Z',
  lastSignInAt: null,
  courses: [{ _id: 'c1', name: 'React', coursecode: 'RCT' }],
};

function school() {
  let list = [tutor];
  const server = fakeServer({
    'GET /api/admin/course/list': () => ({ body: { course: courses } }),
    'GET /api/admin/instructors': () => ({ body: { instructors: list } }),
    'POST /api/admin/instructors': (init) => {
      const body = JSON.parse(String(init?.body)) as { username: string; email: string; courseIds: string[] };
      const created = {
        ...tutor,
        _id: 'u2',
        username: body.username,
        email: body.email,
        name: body.username,
        courses: courses
          .filter((c) => body.courseIds.includes(c._id))
          .map(({ _id, name, coursecode }) => ({ _id, name, coursecode })),
      };
      list = [...list, created];
      return {
        status: 201,
        body: { message: instructorMessages.created, instructor: created },
      };
    },
    'POST /api/admin/instructors/u1/courses': (init) => {
      const { courseIds } = JSON.parse(String(init?.body)) as { courseIds: string[] };
      list = [
        {
          ...tutor,
          courses: courses
            .filter((c) => courseIds.includes(c._id))
            .map(({ _id, name, coursecode }) => ({ _id, name, coursecode })),
        },
      ];
      return { body: { message: 'Courses saved.', instructor: list[0] } };
    },
    'DELETE /api/admin/instructors/u1': () => {
      list = list.filter((i) => i._id !== 'u1');
      return { body: { message: 'Instructor removed.' } };
    },
  });
  renderRoute(<InstructorsPage />, { path: '/admininstructors' });
  const sent = (method: string, path: string) =>
    server.calls.filter((c) => c.method === method && c.path === path);
  return { sent };
}

describe('the Instructors screen', () => {
  it('lists instructors with their courses and creates one with chosen courses, who is mailed a set-up link (no password field)', async () => {
    const user = userEvent.setup();
    const { sent } = school();
    const row = await screen.findByRole('row', { name: /Meera Iyer/ });
    expect(within(row).getByText('React')).toBeInTheDocument();

    expect(screen.queryByLabelText(/Password/)).toBeNull();
    await user.type(screen.getByRole('textbox', { name: 'Username' }), 'ravi');
    await user.type(screen.getByRole('textbox', { name: 'E-mail' }), 'ravi@school.test');
    await user.click(screen.getByRole('checkbox', { name: /Databases/ }));
    await user.click(screen.getByRole('button', { name: 'Create instructor' }));

    expect(
      await screen.findByText(instructorMessages.created, { selector: '.mantine-Notification-description' }),
    ).toBeInTheDocument();
    expect(sent('POST', '/api/admin/instructors').map((c) => c.body)).toEqual([
      { username: 'ravi', email: 'ravi@school.test', courseIds: ['c2'] },
    ]);
    const created = await screen.findByRole('row', { name: /ravi@school\.test/ });
    expect(within(created).getByText('Databases')).toBeInTheDocument();
  });

  it("changes an instructor's courses in a dialog", async () => {
    const user = userEvent.setup();
    const { sent } = school();
    await user.click(await screen.findByRole('button', { name: 'Edit the courses of Meera Iyer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Courses of Meera Iyer' });
    await user.click(within(dialog).getByRole('checkbox', { name: /React/ }));
    await user.click(within(dialog).getByRole('checkbox', { name: /Databases/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Save courses' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sent('POST', '/api/admin/instructors/u1/courses').map((c) => c.body)).toEqual([
      { courseIds: ['c2'] },
    ]);
    const row = await screen.findByRole('row', { name: /Meera Iyer/ });
    await waitFor(() => expect(within(row).getByText('Databases')).toBeInTheDocument());
  });

  it('removes an instructor only after the confirmation dialog', async () => {
    const user = userEvent.setup();
    const { sent } = school();
    await user.click(await screen.findByRole('button', { name: 'Remove Meera Iyer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove this instructor?' });
    expect(dialog).toHaveTextContent('Meera Iyer (meera) loses their account');
    expect(sent('DELETE', '/api/admin/instructors/u1')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.queryByRole('row', { name: /Meera Iyer/ })).not.toBeInTheDocument());
    expect(sent('DELETE', '/api/admin/instructors/u1')).toHaveLength(1);
  });
});

/** A link or a menu button of the navigation, by its name. */
const entry = (nav: HTMLElement, name: string) =>
  within(nav).queryByRole('link', { name }) ?? within(nav).queryByRole('button', { name });

describe('the back-office menu', () => {
  const menu = async (check: object) => {
    fakeServer({ 'GET /api/admin/auth/admincheck': () => ({ body: check }) });
    renderRoute(
      <AdminShell>
        <p>page</p>
      </AdminShell>,
      { path: '/admindashboard' },
    );
    const nav = screen.getAllByRole('navigation', { name: 'Admin' })[0]!;
    await waitFor(() => expect(nav).toHaveAttribute('data-role'));
    return nav;
  };

  it('shows an instructor only the screens they may use', async () => {
    const nav = await menu({ valid: true, role: 'instructor', courseIds: ['c1'] });
    for (const name of ['Dashboard', 'Videos', 'Analytics', 'Questions', 'Your account'])
      expect(entry(nav, name), name).toBeInTheDocument();
    for (const name of ['Courses', 'Students', 'Trace', 'Backups']) expect(entry(nav, name), name).toBeNull();
    expect(screen.getByText('Instructor')).toBeInTheDocument();
  });

  it('shows an admin every screen, Instructors in the Courses menu', async () => {
    const user = userEvent.setup();
    const nav = await menu({ valid: true, role: 'admin' });
    for (const name of ['Courses', 'Videos', 'Students', 'Analytics', 'Questions', 'Trace', 'Backups'])
      expect(entry(nav, name), name).toBeInTheDocument();
    await user.click(within(nav).getByRole('button', { name: 'Courses' }));
    // The menu opens with a transition: on a loaded machine it takes longer than findBy's 1 s.
    expect(await screen.findByRole('menuitem', { name: 'Instructors' }, { timeout: 10_000 })).toHaveAttribute(
      'href',
      '/admininstructors',
    );
  });
});
