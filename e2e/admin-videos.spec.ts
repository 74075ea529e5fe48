import { expect, test, type Page } from '@playwright/test';
import { TestClient } from '../test/support/http-client';
import { adminShots, adminSignIn, chooseFile, makeUploadClip, openScreen, toastWith } from './admin-setup';
import { startLectern, type Lectern } from './lectern';
import { activateStudent, AdminApi, type CreatedStudent } from './student-setup';

const course = 'Data Science';
const group = `${course} Videos (Batch 7)`;
const title = 'Week 1: Pandas basics';
const renamed = 'Week 1: Pandas and NumPy basics';

/** The video titles a signed-in student gets for the course (POST /api/videos), as their player would. */
async function titlesSeenBy(lectern: Lectern, student: CreatedStudent, courseId: string): Promise<string[]> {
  const client = new TestClient(lectern.url);
  const signIn = await client.post('/api/signin', { username: student.username, password: student.password });
  expect(signIn.status).toBe(200);
  const res = await client.post('/api/videos', { courseId });
  expect(res.status).toBe(200);
  return (res.body.videos as { title: string }[]).map((v) => v.title);
}

/** Picks `option` in the multi-select labelled `label` and closes its list. */
async function pickStudent(page: Page, label: RegExp, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option }).click();
  await page.keyboard.press('Escape');
}

test.describe('admin: videos', () => {
  let lectern: Lectern;
  let courseId: string;
  let asha: CreatedStudent;
  let ravi: CreatedStudent;

  test.beforeAll(async () => {
    lectern = await startLectern();
    const api = await AdminApi.signIn(lectern);
    courseId = (
      await api.createCourse({
        name: course,
        description: 'Python, pandas and statistics.',
        coursecode: 'DS',
        batch: 7,
      })
    )._id;
    asha = await api.addStudent('DS7-001', 'Asha Verma');
    ravi = await api.addStudent('DS7-002', 'Ravi Kumar');
    const meera = await api.addStudent('DS7-003', 'Meera Iyer');
    for (const student of [asha, ravi, meera]) await api.grantCourse(courseId, student.id, { days: 30 });
    await activateStudent(lectern, asha, 'Asha@Lectern1');
    await activateStudent(lectern, ravi, 'Ravi@Lectern1');
  });
  test.afterAll(async () => {
    await lectern?.stop();
  });

  test('upload in chunks through a dropped connection, grant and revoke access, edit details, delete', async ({
    page,
  }) => {
    test.setTimeout(300_000);
    const clip = await makeUploadClip();
    await adminSignIn(page, lectern);

    await test.step('upload video: the form says what is missing; students wait for a course', async () => {
      await openScreen(page, lectern, '/adminvideo', 'Upload Video');
      await expect(page.getByText('Please select a course first')).toBeVisible();
      await expect(page.getByRole('combobox', { name: 'Students with access' })).toBeDisabled();
      await page.getByRole('button', { name: 'Upload Video', exact: true }).click();
      await expect(page.getByText('Please select a video file.')).toBeVisible();
      await adminShots(page, 'admin-upload-video-errors');
    });

    // Chunks travel a slowed loopback (so the overlay can be seen), and the second one is cut once:
    // the uploader must say so, wait, ask the server where it stopped and carry on from there.
    const chunkOffsets: number[] = [];
    let cut = false;
    await page.route('**/stream/upload-chunk', async (route) => {
      const body = route.request().postDataBuffer()?.toString('latin1') ?? '';
      chunkOffsets.push(Number(body.match(/name="start"\r\n\r\n(\d+)/)?.[1]));
      await new Promise((r) => setTimeout(r, 600));
      if (chunkOffsets.length === 2 && !cut) {
        cut = true;
        await route.abort('connectionreset');
        return;
      }
      await route.continue();
    });

    await test.step('fill it in, pick the course and one student, and send a 14 MB file', async () => {
      await page.getByLabel('Title').fill(title);
      await page
        .getByLabel('Description')
        .fill('Series, DataFrames, indexing and group-by on a real data set.');
      await page.getByRole('combobox', { name: 'Course' }).click();
      await page.getByRole('option', { name: `${course} - Batch 7` }).click();
      await expect(page.getByRole('combobox', { name: 'Students with access' })).toBeEnabled();
      await pickStudent(page, /Students with access/, 'DS7-001 · Asha Verma');
      await chooseFile(page, page.getByRole('button', { name: 'Video file' }), clip);
      await expect(page.getByText(/^1[34]\.\d MB$/)).toBeVisible();
      await adminShots(page, 'admin-upload-video');
      await page.getByRole('button', { name: 'Upload Video', exact: true }).click();

      const overlay = page.getByRole('dialog', { name: 'Uploading video' });
      await expect(overlay).toBeVisible();
      await expect(overlay.getByText('upload-4s-28mbps.mp4')).toBeVisible();
      await expect(overlay.getByTestId('upload-bytes')).toHaveText(/ \/ 1[34]\.\d MB$/);
      await screenshotsOfOverlay(page, 'admin-upload-progress');
      const lost = page.getByRole('dialog', { name: 'Connection lost' });
      await expect(lost).toBeVisible();
      await expect(lost.getByText(/^Retrying in \d+ s \(attempt 1 of \d+\)/)).toBeVisible();
      await expect(toastWith(page, 'Video uploaded & access granted!')).toBeVisible({ timeout: 60_000 });
    });

    await test.step('the file went up in 5 MB parts and resumed where the server stopped', async () => {
      const chunk = 5 * 1024 * 1024;
      expect(chunkOffsets.length).toBeGreaterThanOrEqual(4); // 3 parts plus the one that was cut
      expect(new Set(chunkOffsets)).toEqual(new Set([0, chunk, 2 * chunk]));
      expect(chunkOffsets.filter((o) => o === chunk)).toHaveLength(2);
    });

    await test.step('it shows under "Uploaded just now" until packaging makes it Ready', async () => {
      const recent = page.getByRole('region', { name: 'Uploaded just now' });
      await expect(recent.getByText(title)).toBeVisible();
      await expect(recent.getByText('Ready', { exact: true })).toBeVisible({ timeout: 60_000 });
      await expect(page.getByLabel('Title')).toHaveValue('');
      await adminShots(page, 'admin-upload-video-done');
      expect(await titlesSeenBy(lectern, asha, courseId)).toContain(title);
      expect(await titlesSeenBy(lectern, ravi, courseId)).not.toContain(title);
    });

    await test.step('manage videos: give Ravi access, revoke Asha', async () => {
      await openScreen(page, lectern, '/editvideo', 'Manage Videos');
      const section = page.getByRole('region', { name: group });
      await section.getByRole('button', { name: `${title}: show student access` }).click();
      await expect(section.getByRole('combobox', { name: 'Students with access (1)' })).toBeVisible();
      await expect(section.getByRole('combobox', { name: 'Students without access (2)' })).toBeVisible();
      await section.getByRole('button', { name: 'Give Access' }).click();
      await expect(section.getByText('No students selected')).toBeVisible();

      await pickStudent(page, /Students without access/, 'DS7-002 · Ravi Kumar');
      await adminShots(page, 'admin-manage-videos');
      await section.getByRole('button', { name: 'Give Access' }).click();
      await expect(toastWith(page, 'Access granted')).toBeVisible();
      await expect(section.getByRole('combobox', { name: 'Students with access (2)' })).toBeVisible();

      await pickStudent(page, /Students with access/, 'DS7-001 · Asha Verma');
      await section.getByRole('button', { name: 'Revoke Access' }).click();
      await expect(toastWith(page, 'Access revoked')).toBeVisible();
      await expect(section.getByRole('combobox', { name: 'Students with access (1)' })).toBeVisible();
      expect(await titlesSeenBy(lectern, asha, courseId)).not.toContain(title);
      expect(await titlesSeenBy(lectern, ravi, courseId)).toContain(title);
    });

    await test.step('edit video details in the modal; no thumbnail reads "Not uploaded"', async () => {
      await openScreen(page, lectern, '/editvideodetails', 'Edit Video Details');
      const row = page.getByRole('region', { name: group }).getByRole('row').filter({ hasText: title });
      await expect(row).toContainText('Not uploaded');
      await expect(row).toContainText('Ready');
      await row.getByRole('button', { name: `Edit ${title}` }).click();
      const modal = page.getByRole('dialog', { name: 'Edit video' });
      await expect(modal.getByLabel('Title')).toHaveValue(title);
      await modal.getByLabel('Title').fill(renamed);
      await adminShots(page, 'admin-edit-video-modal');
      await modal.getByRole('button', { name: 'Save' }).click();
      await expect(toastWith(page, 'Video updated successfully!')).toBeVisible();
      await expect(modal).toHaveCount(0);
      await expect(page.getByRole('row').filter({ hasText: renamed })).toBeVisible();
      await adminShots(page, 'admin-edit-video-details');
      expect(await titlesSeenBy(lectern, ravi, courseId)).toContain(renamed);
    });

    await test.step('delete: Cancel keeps it; confirming deletes it for everyone', async () => {
      await openScreen(page, lectern, '/editvideo', 'Manage Videos');
      await page.getByRole('button', { name: `${renamed}: show student access` }).click();
      await page.getByRole('button', { name: 'Delete Video' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete video?' });
      await expect(confirm).toContainText(`${renamed} and its files will be deleted`);
      await adminShots(page, 'admin-delete-video');
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await expect(confirm).toHaveCount(0);
      await expect(page.getByRole('button', { name: `${renamed}: show student access` })).toBeVisible();

      await page.getByRole('button', { name: 'Delete Video' }).click();
      await confirm.getByRole('button', { name: 'Delete Video' }).click();
      await expect(toastWith(page, 'Video deleted')).toBeVisible();
      await expect(page.getByText('No videos yet.')).toBeVisible();
      expect(await titlesSeenBy(lectern, ravi, courseId)).toEqual([]);
    });
  });
});

/** The overlay only lives while chunks travel, so it is captured at desktop width only. */
async function screenshotsOfOverlay(page: Page, name: string) {
  await page.screenshot({ path: `screenshots/${name}-desktop.png` });
}
