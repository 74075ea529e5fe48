import { expect, test, type Page } from '@playwright/test';
import { adminSignIn } from './admin-setup';
import { scan } from './axe-scan';
import type { Lectern } from './lectern';
import { signInStudent, startOneVideoClass } from './watch-setup';
import type { AdminApi, CreatedStudent } from './student-setup';

/** The student screens also keep every control's name holding the words it shows (issue 40). */
const STUDENT = { labelInName: true };

/** Opens `path` and waits for its main heading (or `ready`). */
async function open(page: Page, lectern: Lectern, path: string, ready: (page: Page) => Promise<void>) {
  await page.goto(`${lectern.url}${path}`);
  await ready(page);
}

/** The screen has drawn its first heading and its data calls have settled. */
const heading = (name: string | RegExp) => async (page: Page) => {
  await expect(page.getByRole('heading', { name }).first()).toBeVisible();
  await page.waitForLoadState('networkidle');
};

test.describe('accessibility of every screen', () => {
  let lectern: Lectern;
  let admin: AdminApi;
  let student: CreatedStudent;
  let courseId: string;
  let videoId: string;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    let students: CreatedStudent[];
    ({ lectern, admin, courseId, videoId, students } = await startOneVideoClass({
      course: { name: 'Accessible Web', description: 'ARIA and focus.', coursecode: 'A11Y' },
      students: [['FS24-501', 'Neha Pillai']],
      video: { title: 'Focus order', description: 'Tab through it.' },
    }));
    student = students[0]!;
    const form = new FormData();
    form.set('language', 'en');
    form.set('label', 'English');
    form.set(
      'file',
      new Blob(['1\n00:00:01,000 --> 00:00:05,000\nFocus follows the reading order\n']),
      'en.srt',
    );
    const res = await admin.client.request('POST', `/api/admin/videos/${videoId}/captions`, { body: form });
    expect(res.status).toBe(200);
  });
  test.afterAll(async () => {
    await lectern?.stop();
  });

  test('student screens: 0 serious or critical violations at 1280 and 390 px', async ({ page }) => {
    test.setTimeout(180_000);
    const found: string[] = [];
    await open(page, lectern, '/', heading(/.+/));
    found.push(...(await scan(page, 'login', STUDENT)));
    for (const path of ['/policy', '/support', '/contact', '/no-such-page']) {
      await open(page, lectern, path, heading(/.+/));
      found.push(...(await scan(page, path, STUDENT)));
    }
    await signInStudent(page, lectern, student);
    await open(page, lectern, '/dashboard', heading('Courses'));
    found.push(...(await scan(page, 'dashboard', STUDENT)));
    await open(page, lectern, `/course/${courseId}?video=${videoId}`, heading('Focus order'));
    found.push(...(await scan(page, 'course', STUDENT)));
    await page.getByRole('button', { name: /^Play Focus order/ }).click();
    await expect(page.getByRole('region', { name: /Transcript/ })).toBeVisible();
    await page.getByRole('region', { name: /Video player/ }).focus();
    await page.keyboard.press('k');
    found.push(...(await scan(page, 'course playing', STUDENT)));
    expect(found).toEqual([]);
  });

  test('admin screens: 0 serious or critical violations at 1280 and 390 px', async ({ page }) => {
    // About 2 minutes of scans on a quiet machine; a loaded one took more than 4 (a limit catches a
    // hang, not a slow machine).
    test.setTimeout(480_000);
    const found: string[] = [];
    await open(page, lectern, '/adminlogin', heading(/.+/));
    found.push(...(await scan(page, 'adminlogin')));
    await adminSignIn(page, lectern);
    const screens: [string, string | RegExp][] = [
      ['/admindashboard', 'Courses Overview'],
      ['/admincourse', /Create Course/],
      ['/editcoursedetails', /Edit Course Details/],
      ['/editcourse', /.+/],
      ['/adminvideo', /Upload Video/],
      ['/editvideo', /.+/],
      ['/editvideodetails', 'Edit Video Details'],
      ['/adminstudents', /Students/],
      ['/adminanalytics', /.+/],
      [`/adminanalytics/course/${courseId}`, /Accessible Web/],
      [`/adminanalytics/video/${videoId}`, /Focus order/],
      [`/adminanalytics/student/${student.id}`, /Neha Pillai/],
      [`/admin/course/${courseId}`, /Accessible Web/],
      ['/admintrace', 'Trace a leak'],
      ['/adminbackups', 'Backups'],
      ['/adminaccount', 'Your account'],
    ];
    for (const [path, name] of screens) {
      await open(page, lectern, path, heading(name));
      found.push(...(await scan(page, path)));
    }
    await page.goto(`${lectern.url}/editvideodetails`);
    await page.getByRole('button', { name: 'Captions of Focus order' }).click();
    await expect(page.getByRole('row', { name: /en English 1/ })).toBeVisible();
    found.push(...(await scan(page, 'captions modal')));
    expect(found).toEqual([]);
  });
});
