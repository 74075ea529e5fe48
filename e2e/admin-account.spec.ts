import { expect, test, type Page } from '@playwright/test';
import { serverMessages } from '../src/contract/messages';
import { heldFactor } from '../test/support/admin-factor';
import { adminShots, adminSignIn, openScreen, toastWith } from './admin-setup';
import { scan } from './axe-scan';
import { startLectern, type Lectern } from './lectern';

const NEW_PASSWORD = 'Changed@E2e456';
const FIREFOX_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';

test.describe("the admin's own account", () => {
  let lectern: Lectern;

  test.beforeAll(async () => {
    lectern = await startLectern();
  });
  test.afterAll(async () => {
    await lectern?.stop();
  });

  /** Lands on the sign-in screen: the session behind `page` ended. */
  const sentToSignIn = async (page: Page) => {
    await page.goto(`${lectern.url}/adminaccount`);
    await expect(page).toHaveURL(/\/adminlogin$/);
    await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
  };

  test('changes the password after confirming it is them, sees both sessions, and signs the other out', async ({
    page,
    browser,
  }) => {
    test.setTimeout(240_000);
    // The other browser says it is Firefox on Windows, so the two rows differ by more than the badge.
    const other = await browser.newContext({ userAgent: FIREFOX_ON_WINDOWS });
    const otherPage = await other.newPage();
    try {
      await adminSignIn(page, lectern);
      await adminSignIn(otherPage, lectern);

      // From the navigation.
      await page
        .getByRole('navigation', { name: 'Admin' })
        .getByRole('link', { name: 'Your account' })
        .click();
      await expect(page).toHaveURL(/\/adminaccount$/);
      await expect(page.getByRole('heading', { name: 'Your account', level: 1 })).toBeVisible();
      await expect(page.getByTestId('recovery-left')).toHaveText('10 codes left.');

      // The rules show while typing, before anything is sent.
      await page.getByLabel('Current password', { exact: true }).fill(lectern.adminPassword);
      await page.getByLabel('New password', { exact: true }).fill('short');
      await expect(page.getByText(/Password must have at least 1 uppercase/)).toBeVisible();
      await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
      await page.getByLabel('Confirm new password', { exact: true }).fill(`${NEW_PASSWORD}x`);
      await expect(page.getByText('Passwords do not match.')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Change password' })).toBeDisabled();
      await page.getByLabel('Confirm new password', { exact: true }).fill(NEW_PASSWORD);

      // The second factor proven at sign-in is fresh for 10 minutes, longer than a test should wait:
      // the server's refusal of a stale one is played once here, and everything after it is real.
      let refused = 0;
      await page.route('**/api/admin/password', async (route) => {
        if (refused++ > 0) return route.continue();
        await route.fulfill({
          status: 403,
          contentType: 'application/json',
          body: JSON.stringify({ message: serverMessages.mfaFreshFactor }),
        });
      });
      await page.getByRole('button', { name: 'Change password' }).click();
      const dialog = page.getByRole('dialog', { name: "Confirm it's you" });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByLabel('Authentication code')).toBeFocused();
      await adminShots(page, 'admin-confirm-its-you');
      expect(await scan(page, "Confirm it's you")).toEqual([]);
      // A recovery code this time (the authenticator's codes were taken by the two sign-ins).
      await dialog.getByRole('button', { name: 'Use a recovery code' }).click();
      const held = heldFactor(lectern.url, 'admin')!;
      await dialog.getByLabel('Recovery code').fill(held.recoveryCodes.shift()!);
      await dialog.getByRole('button', { name: 'Verify' }).click();
      await expect(dialog).toBeHidden();
      await expect(toastWith(page, serverMessages.passwordChanged)).toBeVisible();
      expect(refused).toBe(2);
      await expect(page.getByLabel('Current password', { exact: true })).toHaveValue('');
      await expect(page.getByTestId('recovery-left')).toHaveText('9 codes left.');

      // The other browser was signed out by the change; the new password signs it in again.
      await sentToSignIn(otherPage);
      await adminSignIn(otherPage, lectern, { password: NEW_PASSWORD });

      // Two sessions, this one marked.
      await page.reload();
      const rows = page.getByTestId('session-row');
      await expect(rows).toHaveCount(2);
      // Device, address, started, last active; this one marked.
      const here = rows.filter({ hasText: 'This device' });
      await expect(here).toContainText('Chrome on Linux');
      await expect(here).toContainText('127.0.0.1');
      await expect(here).toContainText('Now');
      const there = rows.filter({ hasText: 'Firefox on Windows' });
      await expect(there).toContainText('127.0.0.1');
      await expect(there).not.toContainText('This device');
      await expect(there.getByRole('cell').nth(2)).toHaveText(/^\d\d\/\d\d\/\d{4} \d\d:\d\d$/);
      await adminShots(page, 'admin-account');
      expect(await scan(page, 'your account')).toEqual([]);

      // Sign out everywhere else, confirmed, with the keyboard.
      await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
      const confirm = page.getByRole('dialog', { name: 'Sign out everywhere else?' });
      await expect(confirm).toContainText('1 other session will be signed out');
      await adminShots(page, 'admin-account-sign-out-others');
      await confirm.getByRole('button', { name: 'Sign out the others' }).focus();
      await page.keyboard.press('Enter');
      await expect(confirm).toBeHidden();
      await expect(toastWith(page, serverMessages.otherSessionsEnded)).toBeVisible();
      await expect(rows).toHaveCount(1);
      await expect(page.getByRole('button', { name: 'Sign out everywhere else' })).toBeDisabled();
      await sentToSignIn(otherPage);

      // This session goes on.
      await openScreen(page, lectern, '/adminaccount', 'Your account');
      await expect(rows).toHaveCount(1);

      // New recovery codes (the code given above is still fresh): shown once, as at enrolment.
      await page.getByRole('button', { name: 'Make new recovery codes' }).click();
      const codes = page.getByTestId('recovery-codes');
      await expect(codes).toBeVisible();
      const renewed = (await codes.innerText()).split(/\s+/).filter(Boolean);
      expect(renewed).toHaveLength(10);
      expect(renewed).not.toContain(held.recoveryCodes[0]);
      held.recoveryCodes = renewed;
      await expect(page.getByRole('button', { name: 'Copy' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Download' })).toBeVisible();
      await adminShots(page, 'admin-account-recovery-codes');
      await expect(page.getByRole('button', { name: 'Continue' })).toBeDisabled();
      await page.getByLabel('I have saved them').check();
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByTestId('recovery-left')).toHaveText('10 codes left.');
    } finally {
      await other.close();
    }
  });
});
