import { notifications } from '@mantine/notifications';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AdminStudent } from '../../../contract/admin-students';
import type { CourseAccessListEntry } from '../../../contract/courses';
import { adminToasts } from '../../../contract/messages';
import { fakeServer, renderRoute, type FakeRoutes } from '../../test-utils';
import CourseAccessPage from './CourseAccessPage';

const DAY = 86_400_000;
const REFUSAL = { status: 409, body: { message: 'The server has its own words for this.' } };

const course: CourseAccessListEntry = {
  courseId: 'c1',
  courseName: 'JavaScript',
  batch: 3,
  students: [
    {
      studentid: 's1',
      rollno: 'JS-01',
      name: 'Asha Rao',
      email: 'asha@example.test',
      accessexpiration: new Date(Date.now() + 30 * DAY).toISOString(),
      accessrevoked: false,
      accessrevokedreason: null,
    },
  ],
};

const loose: AdminStudent = {
  _id: 's2',
  rollno: 'JS-02',
  name: 'Ravi Kumar',
  email: 'ravi@example.test',
  username: 'ravi',
  firstlogin: true,
  lastSignInAt: null,
  createdAt: new Date().toISOString(),
  courses: [],
};

function serve(routes: FakeRoutes = {}) {
  return fakeServer({
    'GET /api/admin/course/accesslist': () => ({ body: { courseAccessList: [course] } }),
    'GET /api/admin/students': () => ({ body: { students: [loose], total: 1, page: 1, pageSize: 200 } }),
    'GET /api/admin/course/list': () => ({
      body: { course: [{ _id: 'c1', name: 'JavaScript', batch: 3, coursecode: 'JS' }] },
    }),
    ...routes,
  });
}

// Toasts live in a module-level store: each test starts with none.
beforeEach(() => notifications.clean());

const toast = (text: string) => screen.findByText(text, { selector: '.mantine-Notification-description' });

/** On the page: presses a student's row button, types into the dialog it opens (by label) and presses `submit`. */
async function submitRowDialog(
  rowButton: string,
  dialogName: string,
  typed: Record<string, string>,
  submit: string,
) {
  const user = userEvent.setup();
  renderRoute(<CourseAccessPage />, { path: '/editcourse' });
  await user.click(await screen.findByRole('button', { name: rowButton }));
  const dialog = await screen.findByRole('dialog', { name: dialogName });
  for (const [label, text] of Object.entries(typed))
    await user.type(within(dialog).getByLabelText(label), text);
  await user.click(within(dialog).getByRole('button', { name: submit }));
}

describe('/editcourse', () => {
  it("lists the students in no course under 'Unassigned', with a Grant that enrols them in a course", async () => {
    const server = serve({
      'POST /api/admin/students/enrol': () => ({
        body: { message: adminToasts.courseAccessGranted, enrolled: 1, granted: 0, extended: 0 },
      }),
    });
    const user = userEvent.setup();
    renderRoute(<CourseAccessPage />, { path: '/editcourse' });
    const group = await screen.findByRole('region', { name: 'Unassigned' });
    expect(within(group).getByRole('heading', { name: 'Unassigned' })).toBeInTheDocument();
    expect(within(group).getByRole('row', { name: /JS-02/ })).toHaveTextContent('Ravi Kumar');
    expect(within(group).queryByText('JS-01')).not.toBeInTheDocument();
    expect(server.calls.find((c) => c.path === '/api/admin/students')).toBeTruthy();

    await user.click(within(group).getByRole('button', { name: 'Grant a course to Ravi Kumar (JS-02)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Grant a course to Ravi Kumar (JS-02)' });
    await user.click(within(dialog).getByRole('combobox', { name: 'Course' }));
    await user.click(await screen.findByRole('option', { name: 'JavaScript - Batch 3', hidden: true }));
    await user.click(within(dialog).getByRole('button', { name: 'Enrol' }));
    expect(await toast(`${adminToasts.courseAccessGranted} 1 student enrolled.`)).toBeInTheDocument();
    expect(server.calls.find((c) => c.path === '/api/admin/students/enrol')?.body).toEqual({
      courseId: 'c1',
      studentIds: ['s2'],
      days: 30,
    });
  });

  it("sends Extend as the spec's accessexpiration in days; a failure says 'Granting access failed.'", async () => {
    const server = serve({ 'POST /api/admin/course/grantaccess': () => REFUSAL });
    await submitRowDialog('Extend access of Asha Rao (JS-01)', 'Extend access', { Days: '10' }, 'Extend');
    expect(await toast(adminToasts.grantFailed)).toBeInTheDocument();
    expect(screen.queryByText(REFUSAL.body.message)).not.toBeInTheDocument();
    expect(server.calls.find((c) => c.path === '/api/admin/course/grantaccess')?.body).toEqual({
      courseId: 'c1',
      studentId: 's1',
      accessexpiration: 10,
    });
  });

  it("says 'Revoking access failed.' when a revoke fails", async () => {
    serve({ 'POST /api/admin/course/revokeaccess': () => REFUSAL });
    await submitRowDialog(
      'Revoke access of Asha Rao (JS-01)',
      'Revoke access',
      { Reason: 'Fees pending' },
      'Revoke',
    );
    expect(await toast(adminToasts.revokeFailed)).toBeInTheDocument();
    expect(screen.queryByText(REFUSAL.body.message)).not.toBeInTheDocument();
  });

  it("says 'Granting access failed.' when Add students fails", async () => {
    serve({ 'POST /api/admin/students/enrol': () => REFUSAL });
    const user = userEvent.setup();
    renderRoute(<CourseAccessPage />, { path: '/editcourse' });
    await user.click(await screen.findByRole('button', { name: 'Add students to JavaScript (Batch 3)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add students' });
    await user.click(within(dialog).getByRole('combobox', { name: 'Students' }));
    await user.click(await screen.findByRole('option', { name: /JS-02 · Ravi Kumar/, hidden: true }));
    await user.click(within(dialog).getByRole('button', { name: 'Enrol 1 student' }));
    expect(await toast(adminToasts.grantFailed)).toBeInTheDocument();
    expect(screen.queryByText(REFUSAL.body.message)).not.toBeInTheDocument();
  });

  it("shows an enrollment that expired a few hours ago as expired, not 'today', as the server refuses it", async () => {
    const HOUR = 3_600_000;
    const row = (rollno: string, expiresIn: number, accessrevoked = false) => ({
      ...course.students[0]!,
      studentid: rollno,
      rollno,
      accessexpiration: new Date(Date.now() + expiresIn).toISOString(),
      accessrevoked,
    });
    serve({
      'GET /api/time': () => ({ body: { hour: 12, open: true, timeZone: 'UTC', hours: null } }),
      'GET /api/admin/course/accesslist': () => ({
        body: {
          courseAccessList: [
            {
              ...course,
              students: [row('R-1', -3 * HOUR), row('R-2', 40 * DAY), row('R-3', 40 * DAY, true)],
            },
          ],
        },
      }),
    });
    renderRoute(<CourseAccessPage />, { path: '/editcourse' });
    const expired = await screen.findByRole('row', { name: /R-1/ });
    expect(expired).toHaveTextContent('expired');
    expect(expired).not.toHaveTextContent('today');
    expect(within(expired).getByText('Active')).toBeInTheDocument();
    expect(screen.getByRole('row', { name: /R-2/ })).toHaveTextContent('in 40 days');
    expect(within(screen.getByRole('row', { name: /R-3/ })).getByText('Revoked')).toBeInTheDocument();
  });
});
