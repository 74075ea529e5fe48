import { expect, test } from '@playwright/test';
import { adminShots, adminSignIn, openScreen, setUpThroughLink, toastWith } from './admin-setup';
import { startLectern, type Lectern } from './lectern';
import { instructorMessages } from '../src/contract/instructors';
import { AdminApi } from './student-setup';

let lectern: Lectern;
let courses: { _id: string; name: string }[];

test.beforeAll(async () => {
  lectern = await startLectern();
  const api = await AdminApi.signIn(lectern);
  courses = [
    await api.createCourse({ name: 'React in Depth', description: 'Hooks and more.', coursecode: 'RCT' }),
    await api.createCourse({ name: 'Databases', description: 'SQL and more.', coursecode: 'DB' }),
  ];
});
test.afterAll(async () => {
  await lectern?.stop();
});

test('an admin creates an instructor for one course; the instructor sets the account up through the mailed link and sees only what they may use', async ({
  page,
  browser,
}) => {
  await adminSignIn(page, lectern);
  await openScreen(page, lectern, '/admininstructors', 'Instructors');
  await page.getByRole('textbox', { name: 'Username', exact: true }).fill('meera');
  await page.getByRole('textbox', { name: 'E-mail' }).fill('meera@school.example');
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Meera Iyer');
  await page.getByRole('checkbox', { name: /React in Depth/ }).check();
  const before = lectern.smtp.mails.length;
  await page.getByRole('button', { name: 'Create instructor' }).click();
  await expect(toastWith(page, instructorMessages.created)).toBeVisible();
  const row = page.getByRole('row', { name: /Meera Iyer/ });
  await expect(row).toContainText('React in Depth');
  await expect(row).not.toContainText('Databases');
  await adminShots(page, 'admin-instructors');

  await page.getByRole('button', { name: 'Remove Meera Iyer' }).click();
  await expect(page.getByRole('dialog', { name: 'Remove this instructor?' })).toBeVisible();
  await adminShots(page, 'admin-instructors-remove');
  await page.getByRole('button', { name: 'Cancel' }).click();

  // The instructor: their own password and second factor through the mailed link, a back office cut to their course.
  const context = await browser.newContext();
  const tutor = await context.newPage();
  await setUpThroughLink(tutor, lectern, {
    email: 'meera@school.example',
    username: 'meera',
    password: 'Tutor@E2e123',
    after: before,
  });
  await expect(tutor.getByRole('heading', { name: 'Instructor Dashboard' })).toBeVisible();
  const nav = tutor.getByRole('navigation', { name: 'Admin' }).first();
  await expect(nav.getByRole('button', { name: 'Videos' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Questions' })).toBeVisible();
  for (const name of ['Students', 'Trace', 'Backups'])
    await expect(nav.getByRole('link', { name })).toHaveCount(0);
  await expect(nav.getByRole('button', { name: 'Courses' })).toHaveCount(0);
  await expect(tutor.getByText('React in Depth').first()).toBeVisible();
  await expect(tutor.getByText('Databases')).toHaveCount(0);
  await adminShots(tutor, 'instructor-dashboard');
  // Their course's page: its videos and students, no access editing (the admins').
  await tutor.getByRole('link', { name: 'React in Depth' }).first().click();
  await expect(tutor.getByRole('heading', { name: 'React in Depth', level: 1 })).toBeVisible();
  await expect(tutor.getByText('No students enrolled yet.')).toBeVisible();
  await expect(tutor.getByRole('link', { name: 'Edit Course Access' })).toHaveCount(0);
  await expect(tutor.getByRole('link', { name: 'Upload Video' })).toBeVisible();
  expect(courses).toHaveLength(2);
  await context.close();
});
