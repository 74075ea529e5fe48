import { expect, test, type Page } from '@playwright/test';
import {
  adminShots,
  adminSignIn,
  chooseFile,
  makeThumbnailFile,
  openScreen,
  toastWith,
  writeTempFile,
} from './admin-setup';
import { startLectern, type Lectern } from './lectern';

/** The calendar day's label as Mantine's date picker names it ("5 November 2026"). */
function dayLabel(day: number, base = new Date()): string {
  const date = new Date(base.getFullYear(), base.getMonth(), day);
  return `${day} ${date.toLocaleString('en-GB', { month: 'long' })} ${date.getFullYear()}`;
}

const dmy = (day: number, base = new Date()) =>
  `${String(day).padStart(2, '0')}/${String(base.getMonth() + 1).padStart(2, '0')}/${base.getFullYear()}`;

async function pickDay(page: Page, field: string, day: number) {
  await page.getByRole('button', { name: field }).click();
  await page.getByRole('button', { name: dayLabel(day), exact: true }).click();
  // The calendar closes with a transition; wait so the next picker's days are the only ones.
  await expect(page.locator('.mantine-DatePickerInput-day')).toHaveCount(0);
}

/** A row of the access table of one course group. */
const accessRow = (page: Page, group: string, rollno: string) =>
  page.getByRole('region', { name: group }).getByRole('row').filter({ hasText: rollno });

test.describe('admin: courses, students and course access', () => {
  let lectern: Lectern;
  const course = 'Full Stack Web Development';
  const group = `${course} (Batch 12)`;

  test.beforeAll(async () => {
    lectern = await startLectern();
  });
  test.afterAll(async () => {
    await lectern?.stop();
  });

  test('sign in, create and edit a course, import and enrol students, extend, revoke and re-grant access', async ({
    page,
  }) => {
    test.setTimeout(240_000);

    await test.step('admin login: a wrong password is refused with the server message, no footer', async () => {
      await page.goto(`${lectern.url}/adminlogin`);
      await expect(page.getByRole('heading', { name: 'Lectern admin' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Privacy policy' })).toHaveCount(0);
      await adminShots(page, 'admin-login');
      await page.getByLabel('Username or e-mail').fill('admin');
      await page.getByLabel('Password', { exact: true }).fill('not-the-password');
      await page.getByRole('button', { name: 'Show or hide password' }).click();
      await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('type', 'text');
      await page.getByRole('button', { name: 'Login' }).click();
      await expect(toastWith(page, 'Invalid username or password.')).toBeVisible();
      await expect(page).toHaveURL(/\/adminlogin$/);
    });

    await test.step('the dashboard starts empty, with the six actions and the students screen', async () => {
      await adminSignIn(page, lectern, { shots: true });
      await expect(toastWith(page, 'Admin login successful')).toBeVisible();
      for (const label of [
        'Create Course',
        'Upload Video',
        'Edit Course Details',
        'Edit Video Details',
        'Edit Course Access',
        'Edit Video Access',
        'Manage Students',
      ]) {
        await expect(
          page.getByRole('navigation', { name: 'Admin tasks' }).getByRole('link', { name: label }),
        ).toBeVisible();
      }
      await expect(page.getByText('No courses available.')).toBeVisible();
      await expect(page.getByRole('link', { name: 'Privacy policy' })).toBeVisible();
      await adminShots(page, 'admin-dashboard-empty');
    });

    await test.step('create course: section 5 messages, then a valid course with a thumbnail', async () => {
      await page
        .getByRole('navigation', { name: 'Admin tasks' })
        .getByRole('link', { name: 'Create Course' })
        .click();
      await expect(page).toHaveURL(/\/admincourse$/);
      await page.getByRole('button', { name: 'Create Course' }).click();
      for (const message of [
        'Please enter a valid batch number.',
        'Course code is required.',
        'Course name is required.',
        'Course description is required.',
      ]) {
        await expect(page.getByText(message)).toBeVisible();
      }
      await expect(page.getByText('Please select start and end dates.')).toHaveCount(2);

      await page.getByRole('textbox', { name: 'Batch' }).fill('12');
      await page.getByLabel('Course code').fill('  ');
      await page.getByLabel('Course name').fill(course);
      await page
        .getByLabel('Description')
        .fill(
          'HTML, CSS and JavaScript, then React and Node with PostgreSQL. Weekly projects and a capstone.',
        );
      await pickDay(page, 'Start date', 28);
      await pickDay(page, 'End date', 1);
      await page.getByRole('button', { name: 'Create Course' }).click();
      await expect(page.getByText('Course code is required.')).toBeVisible();
      await expect(page.getByText('Start date cannot be later than end date.')).toBeVisible();
      await adminShots(page, 'admin-create-course-errors');

      await page.getByLabel('Course code').fill('FSWD');
      await pickDay(page, 'Start date', 1);
      await pickDay(page, 'End date', 28);
      await chooseFile(
        page,
        page.getByRole('button', { name: 'Thumbnail' }),
        await makeThumbnailFile('course-thumb', '0f766e', '1e3a8a'),
      );
      await expect(page.getByRole('img', { name: 'Chosen thumbnail' })).toBeVisible();
      await page.getByRole('button', { name: 'Create Course' }).click();
      await expect(toastWith(page, 'Course created successfully!')).toBeVisible();
      await expect(page.getByText(`Created ${course} - Batch 12`)).toBeVisible();
      await expect(page.getByLabel('Course name')).toHaveValue('');
      await adminShots(page, 'admin-create-course');

      // The same code in the same batch is refused: the catalogue's toast, and the server's reason by the form.
      await page.getByRole('textbox', { name: 'Batch' }).fill('12');
      await page.getByLabel('Course code').fill('fswd');
      await page.getByLabel('Course name').fill('Duplicate');
      await page.getByLabel('Description').fill('Same code.');
      await pickDay(page, 'Start date', 1);
      await pickDay(page, 'End date', 2);
      await page.getByRole('button', { name: 'Create Course' }).click();
      await expect(toastWith(page, 'Failed to create course.')).toBeVisible();
      await expect(
        page.getByRole('alert').filter({ hasText: 'This course code is already used in this batch.' }),
      ).toBeVisible();
      await adminShots(page, 'admin-create-course-refused');
    });

    await test.step('the dashboard lists it with dd/mm/yyyy dates; phones get cards to the course page', async () => {
      await page.getByRole('link', { name: 'Lectern admin: go to the dashboard' }).click();
      await expect(page).toHaveURL(/\/admindashboard$/);
      const row = page.getByRole('row').filter({ hasText: course });
      await expect(row).toContainText('FSWD');
      await expect(row).toContainText(dmy(1));
      await expect(row).toContainText(dmy(28));
      // The thumbnail is decorative (alt=""), so it is found as an <img>, and must have loaded.
      const thumbnail = row.locator('img');
      await expect(thumbnail).toBeVisible();
      await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1280);
      await adminShots(page, 'admin-dashboard');
      await page.setViewportSize({ width: 390, height: 844 });
      const card = page.getByRole('link', { name: `${course} (batch 12)` });
      await expect(card).toHaveAttribute('href', /\/admin\/course\/[0-9a-f-]{36}$/);
      await page.setViewportSize({ width: 1280, height: 800 });
    });

    await test.step('edit course details in the modal', async () => {
      await openScreen(page, lectern, '/editcoursedetails', 'Edit Course Details');
      await page.getByRole('button', { name: `Edit ${course} (Batch 12)` }).click();
      const modal = page.getByRole('dialog', { name: 'Edit course' });
      await expect(modal.getByLabel('Course code')).toHaveValue('FSWD');
      await expect(modal.getByRole('img', { name: 'Current thumbnail' })).toBeVisible();
      await modal.getByLabel('Description').fill('');
      await modal.getByRole('button', { name: 'Save' }).click();
      await expect(modal.getByText('Course description is required.')).toBeVisible();
      await modal.getByLabel('Description').fill('Front end, back end and a capstone, in 30 weeks.');
      await adminShots(page, 'admin-edit-course-modal');
      await modal.getByRole('button', { name: 'Save' }).click();
      await expect(toastWith(page, 'Course updated successfully!')).toBeVisible();
      await expect(modal).toHaveCount(0);
      await expect(page.getByRole('row').filter({ hasText: course })).toContainText('in 30 weeks');
      await adminShots(page, 'admin-edit-course-details');
    });

    await test.step('import students from a CSV file: problems first, nothing written, then the fixed file', async () => {
      await openScreen(page, lectern, '/adminstudents', 'Students');
      await expect(page.getByText('No students yet.')).toBeVisible();
      await page.getByRole('button', { name: 'Import CSV' }).first().click();
      const modal = page.getByRole('dialog', { name: 'Import students from CSV' });
      const bad = await writeTempFile(
        'class-bad.csv',
        'rollno,name,email\nFS24-001,Asha Verma,asha@students.example\nFS24-002,Ravi Kumar,not-an-email\nFS24-001,Asha Again,asha2@students.example\n',
      );
      await chooseFile(page, modal.getByRole('button', { name: 'CSV file' }), bad);
      await expect(modal.getByText('2 of 3 rows have problems.', { exact: false })).toBeVisible();
      await expect(modal.getByRole('row').filter({ hasText: 'FS24-002' })).toContainText(/e-mail/i);
      await expect(modal.getByRole('button', { name: 'Import' })).toBeDisabled();
      await adminShots(page, 'admin-students-import-problems');

      const good = await writeTempFile(
        'class.csv',
        'rollno,name,email\nFS24-001,Asha Verma,asha@students.example\nFS24-002,Ravi Kumar,ravi@students.example\nFS24-003,Meera Iyer,meera@students.example\n',
      );
      await chooseFile(page, modal.getByRole('button', { name: /class-bad\.csv|CSV file/ }), good);
      await expect(modal.getByText('All 3 rows are valid.')).toBeVisible();
      await modal.getByRole('button', { name: 'Import 3 students' }).click();
      await expect(toastWith(page, 'Imported 3 students.')).toBeVisible();
      await expect(modal).toHaveCount(0);
      for (const rollno of ['FS24-001', 'FS24-002', 'FS24-003']) {
        await expect(page.getByRole('row').filter({ hasText: rollno })).toContainText('Never');
      }
      await lectern.smtp.waitFor('meera@students.example', 0);
    });

    await test.step('enrol two selected students in the course for 30 days', async () => {
      await page.getByRole('checkbox', { name: 'Select Asha Verma (FS24-001)' }).check();
      await page.getByRole('checkbox', { name: 'Select Ravi Kumar (FS24-002)' }).check();
      await page.getByRole('button', { name: 'Enrol 2 in a course' }).click();
      const modal = page.getByRole('dialog', { name: 'Enrol in a course' });
      await modal.getByRole('combobox', { name: 'Course' }).click();
      await page.getByRole('option', { name: `${course} - Batch 12` }).click();
      await modal.getByLabel('Days of access').fill('30');
      await adminShots(page, 'admin-students-enrol');
      await modal.getByRole('button', { name: 'Enrol' }).click();
      await expect(
        toastWith(page, 'Access granted/extended successfully! 2 students enrolled.'),
      ).toBeVisible();
      await expect(page.getByRole('row').filter({ hasText: 'FS24-001' })).toContainText(`${course} · B12`);
      await adminShots(page, 'admin-students');
    });

    await test.step('course access: the third student is Unassigned until granted a course', async () => {
      await openScreen(page, lectern, '/editcourse', 'Course Access Management');
      await expect(page.getByRole('heading', { name: group })).toBeVisible();
      const unassigned = page.getByRole('region', { name: 'Unassigned' });
      await expect(unassigned.getByRole('heading', { name: 'Unassigned' })).toBeVisible();
      await expect(unassigned.getByRole('row').filter({ hasText: 'FS24-003' })).toContainText('Meera Iyer');
      await expect(unassigned.getByRole('row').filter({ hasText: 'FS24-001' })).toHaveCount(0);
      await adminShots(page, 'admin-course-access-unassigned');
      await unassigned.getByRole('button', { name: 'Grant a course to Meera Iyer (FS24-003)' }).click();
      const grantCourse = page.getByRole('dialog', { name: 'Grant a course to Meera Iyer (FS24-003)' });
      await grantCourse.getByRole('combobox', { name: 'Course' }).click();
      await page.getByRole('option', { name: `${course} - Batch 12` }).click();
      await grantCourse.getByLabel('Days of access').fill('14');
      await grantCourse.getByRole('button', { name: 'Enrol' }).click();
      await expect(
        toastWith(page, 'Access granted/extended successfully! 1 student enrolled.'),
      ).toBeVisible();
      await expect(accessRow(page, group, 'FS24-003')).toContainText('in 14 days');
      await expect(unassigned).toHaveCount(0);
    });

    await test.step('course access: add students, extend, revoke with a reason, grant again', async () => {
      await page.getByRole('button', { name: `Add students to ${group}` }).click();
      const add = page.getByRole('dialog', { name: 'Add students' });
      await add.getByRole('button', { name: 'Enrol' }).click();
      await expect(add.getByText('No students selected')).toBeVisible();
      await add.getByRole('combobox', { name: 'Students' }).fill('Meera');
      await page.getByRole('option', { name: 'FS24-003 · Meera Iyer' }).click();
      await add.getByLabel('Days of access').fill('7');
      await adminShots(page, 'admin-course-access-add');
      await add.getByRole('button', { name: 'Enrol 1 student' }).click();
      await expect(toastWith(page, 'Access granted/extended successfully! 1 extended.')).toBeVisible();
      await expect(accessRow(page, group, 'FS24-003')).toContainText('in 21 days');

      const asha = accessRow(page, group, 'FS24-001');
      await expect(asha).toContainText('Active');
      await expect(asha).toContainText('in 30 days');
      await asha.getByRole('button', { name: 'Extend access of Asha Verma (FS24-001)' }).click();
      const days = page.getByRole('dialog', { name: 'Extend access' });
      await days.getByRole('button', { name: 'Extend' }).click();
      await expect(days.getByText('Please enter valid days!')).toBeVisible();
      await days.getByLabel('Days').fill('10');
      await expect(days.getByText(/^New expiry: \d\d\/\d\d\/\d{4}$/)).toBeVisible();
      await adminShots(page, 'admin-course-access-extend');
      await days.getByRole('button', { name: 'Extend' }).click();
      await expect(toastWith(page, 'Access granted/extended successfully!')).toBeVisible();
      await expect(asha).toContainText('in 40 days');

      const ravi = accessRow(page, group, 'FS24-002');
      await ravi.getByRole('button', { name: 'Revoke access of Ravi Kumar (FS24-002)' }).click();
      const revoke = page.getByRole('dialog', { name: 'Revoke access' });
      await revoke.getByLabel('Reason').fill('   ');
      await revoke.getByRole('button', { name: 'Revoke' }).click();
      await expect(revoke.getByText('Please enter revoke reason!')).toBeVisible();
      await revoke.getByLabel('Reason').fill('Fees pending for term 2');
      await adminShots(page, 'admin-course-access-revoke');
      await revoke.getByRole('button', { name: 'Revoke' }).click();
      await expect(toastWith(page, 'Access revoked successfully!')).toBeVisible();
      await expect(ravi).toContainText('Revoked');
      await expect(ravi).toContainText('Fees pending for term 2');
      await expect(ravi.getByRole('button', { name: /^Extend|^Revoke/ })).toHaveCount(0);
      await adminShots(page, 'admin-course-access');

      await ravi.getByRole('button', { name: 'Grant access to Ravi Kumar (FS24-002)' }).click();
      const grant = page.getByRole('dialog', { name: 'Grant access' });
      await grant.getByLabel('Days').fill('5');
      await grant.getByRole('button', { name: 'Grant' }).click();
      await expect(toastWith(page, 'Access granted/extended successfully!')).toBeVisible();
      await expect(ravi).toContainText('Active');
    });

    await test.step('a student: access history from the audit events, and a re-sent initial password', async () => {
      await openScreen(page, lectern, '/adminstudents', 'Students');
      await page.getByLabel('Search students').fill('ravi');
      await expect(page.getByRole('row').filter({ hasText: 'FS24-001' })).toHaveCount(0);
      await page.getByRole('button', { name: 'Actions for Ravi Kumar (FS24-002)' }).click();
      await page.getByRole('menuitem', { name: 'Access history' }).click();
      const drawer = page.getByRole('dialog', { name: 'Access history: Ravi Kumar (FS24-002)' });
      await expect(drawer.getByText('Course access revoked')).toBeVisible();
      await expect(drawer.getByText('Reason: Fees pending for term 2')).toBeVisible();
      await expect(drawer.getByText('Enrolled')).toBeVisible();
      await expect(drawer.getByText('Course access granted')).toBeVisible();
      await adminShots(page, 'admin-students-history');
      await page.keyboard.press('Escape');
      await expect(drawer).toHaveCount(0);

      const before = lectern.smtp.mails.length;
      await page.getByRole('button', { name: 'Actions for Ravi Kumar (FS24-002)' }).click();
      await page.getByRole('menuitem', { name: 'Re-send password' }).click();
      const confirm = page.getByRole('dialog', { name: 'Re-send initial password?' });
      await expect(confirm).toContainText('ravi@students.example');
      await confirm.getByRole('button', { name: 'Re-send password' }).click();
      await expect(toastWith(page, 'A new initial password has been mailed.')).toBeVisible();
      await lectern.smtp.waitFor('ravi@students.example', before);
    });

    await test.step('the course page shows its students with their access', async () => {
      await page.goto(`${lectern.url}/admindashboard`);
      await page.getByRole('link', { name: course }).click();
      await expect(page).toHaveURL(/\/admin\/course\/[0-9a-f-]{36}$/);
      await expect(page.getByRole('heading', { name: course, level: 1 })).toBeVisible();
      await expect(page.getByText('3 active')).toBeVisible();
      await expect(page.getByText('No videos in this course yet.')).toBeVisible();
      await adminShots(page, 'admin-course-page');
    });

    await test.step('logout; the admin screens then send back to the admin login', async () => {
      await page.getByRole('button', { name: 'Logout' }).click();
      await expect(page).toHaveURL(/\/adminlogin$/);
      await expect(toastWith(page, 'Logged out successfully!')).toBeVisible();
      await page.goto(`${lectern.url}/editcourse`);
      await expect(page).toHaveURL(/\/adminlogin$/);
      await expect(toastWith(page, /Please log in as admin\./)).toBeVisible();
    });
  });
});
