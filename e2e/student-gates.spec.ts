import { expect, test } from '@playwright/test';
import { adminSignIn } from './admin-setup';
import { closedHoursNow, screenshots, startLectern, type Lectern } from './lectern';
import { AdminApi } from './student-setup';

test.describe('student gates', () => {
  let open: Lectern;
  let closed: Lectern;
  test.beforeAll(async () => {
    [open, closed] = await Promise.all([startLectern(), startLectern({ OPEN_HOURS: closedHoursNow() })]);
  });
  test.afterAll(async () => {
    await Promise.all([open?.stop(), closed?.stop()]);
  });

  test('outside opening hours every student page shows the maintenance screen with the next opening', async ({
    page,
  }) => {
    for (const path of ['/dashboard', '/course/00000000-0000-4000-8000-000000000000', '/reset-password']) {
      await page.goto(`${closed.url}${path}`);
      await expect(page.getByRole('heading', { name: 'We are closed right now' })).toBeVisible();
      await expect(page.getByText(/It opens again .*\d\d:00/)).toBeVisible();
      await expect(page).toHaveURL(`${closed.url}${path}`); // no redirect: the gate shows the screen in place
    }
    await screenshots(page, 'maintenance-reset');
  });

  test('without a session a student page goes to sign-in with a toast', async ({ page }) => {
    await page.goto(`${open.url}/dashboard`);
    await expect(page).toHaveURL(new RegExp(`${open.url}/?$`));
    await expect(page.getByText('Unauthorized access. Please log in.')).toBeVisible();
    await expect(page.getByLabel('Username or e-mail')).toBeVisible();
  });

  test('an admin is sent away from the student dashboard', async ({ page }) => {
    // Signed in all the way (password and second step), as the admin would be.
    await adminSignIn(page, open);
    await page.goto(`${open.url}/dashboard`);
    await expect(page).toHaveURL(`${open.url}/admindashboard`);
    await expect(page.getByText('Admins are not allowed to access student pages.')).toBeVisible();
  });

  test('a student who has not reset the password yet is sent to the reset page', async ({ page }) => {
    const admin = await AdminApi.signIn(open);
    const student = await admin.addStudent('GATE-001', 'Ravi Kumar');
    const res = await page.request.post(`${open.url}/api/signin`, {
      data: { username: student.username, password: student.password },
    });
    expect((await res.json()).message).toContain('First Sign-in');
    await page.goto(`${open.url}/dashboard`);
    await expect(page).toHaveURL(`${open.url}/reset-password`);
    await expect(page.getByText('Please reset your password before continuing.')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Reset Your Password' })).toBeVisible();
  });
});
