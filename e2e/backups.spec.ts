import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { adminShots, adminSignIn, openScreen } from './admin-setup';
import { scan } from './axe-scan';
import type { Lectern } from './lectern';
import { startOneVideoClass } from './watch-setup';

test.describe('backups', () => {
  let lectern: Lectern;
  let targetDir: string;
  let target: string;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    targetDir = await mkdtemp(path.join(tmpdir(), 'lectern-e2e-backups-'));
    target = path.join(targetDir, 'backups');
    ({ lectern } = await startOneVideoClass({
      course: { name: 'Databases', description: 'Keys and joins.', coursecode: 'DB' },
      students: [['FS24-601', 'Kabir Shah']],
      video: { title: 'Normal forms', description: 'From 1NF to BCNF.' },
      env: { BACKUP_TARGET: target },
    }));
  });
  test.afterAll(async () => {
    await lectern?.stop();
    await rm(targetDir, { recursive: true, force: true });
  });

  test('an admin backs up now: progress, then a complete backup; a failure shows its reason until then', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    // The target cannot be written yet: a plain file where its folder should be.
    await writeFile(target, 'not a folder');
    await adminSignIn(page, lectern);
    // Toasts show below the top bar: the sign-in's covered the navigation's right end, and the
    // pointer on its way to Backups, resting on the toast, held it open (a CI run's 20 s of retries).
    const bar = await page.locator('header').first().boundingBox();
    const toasts = await page.locator('.mantine-Notifications-root[data-position="top-right"]').boundingBox();
    expect(toasts!.y).toBeGreaterThanOrEqual(bar!.y + bar!.height);

    // From the navigation.
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Backups' }).click();
    await expect(page.getByRole('heading', { name: 'Backups', level: 1 })).toBeVisible();
    await expect(page.getByText('No backups yet.')).toBeVisible();
    await expect(page.getByText(/Scheduled backups are off/)).toBeVisible();
    await adminShots(page, 'backups-empty');

    // With the keyboard: a failed backup shows its reason, in the table and above it.
    const backUpNow = page.getByRole('button', { name: 'Back up now' });
    await backUpNow.focus();
    await page.keyboard.press('Enter');
    const notice = page.getByRole('alert').filter({ hasText: 'The last backup failed' });
    await expect(notice).toBeVisible({ timeout: 60_000 });
    const reason = (await notice.locator('.mantine-Text-root span').first().textContent())?.trim() ?? '';
    expect(reason.length).toBeGreaterThan(5);
    await expect(page.getByRole('row', { name: /On demand.*Failed/ })).toBeVisible();
    await adminShots(page, 'backups-failed');
    expect(await scan(page, 'backups, failed')).toEqual([]);

    // The dashboard says so too, until a backup succeeds.
    await openScreen(page, lectern, '/admindashboard', 'Admin Dashboard');
    await expect(page.getByRole('alert').filter({ hasText: 'The last backup failed' })).toContainText(reason);
    await adminShots(page, 'admin-dashboard-backup-failed');

    // The target is fixed: back up now shows progress, then a complete row.
    await rm(target);
    await openScreen(page, lectern, '/adminbackups', 'Backups');
    await page.getByRole('button', { name: 'Back up now' }).click();
    // The state under way (its heading and bar in one locator), or already the complete row: a
    // backup of this small school can finish in under a second, between two looks of the test.
    const complete = page.getByRole('row', { name: /On demand.*Complete/ });
    const underWay = page
      .getByRole('region', { name: /^Backup (queued|running)$/ })
      .getByRole('progressbar', { name: 'Backup progress' });
    await expect(underWay.or(complete)).toBeVisible();
    if (await underWay.isVisible())
      await page.screenshot({ path: 'screenshots/backups-running-desktop.png' });
    await expect(complete).toBeVisible({ timeout: 90_000 });
    await expect(page.getByRole('progressbar')).toHaveCount(0);
    await expect(notice).toHaveCount(0);
    // Size, objects copied ("n of n": the first backup copies every object) and duration.
    await expect(complete).toContainText(/\d+(\.\d)? (KB|MB)/);
    await expect(complete).toContainText(/(\d+) of \1/);
    await expect(complete).toContainText(/\d+ (ms|s)/);
    await expect(page.getByText(/Last successful backup/)).toBeVisible();
    await adminShots(page, 'backups');
    expect(await scan(page, 'backups, complete')).toEqual([]);

    await openScreen(page, lectern, '/admindashboard', 'Admin Dashboard');
    await expect(page.getByRole('heading', { name: 'Courses Overview' })).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'The last backup failed' })).toHaveCount(0);
  });
});
