import { execFile } from 'node:child_process';
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, type Locator, type Page } from '@playwright/test';
import { heldFactor, holdFactor, nextCode, PERIOD_MS, totpAt } from '../test/support/admin-factor';
import { setupLinkToken } from '../test/support/setup-link';
import { screenshots, type Lectern } from './lectern';

const run = promisify(execFile);
const dir = path.join(tmpdir(), 'lectern-e2e-clips');

/**
 * A 4-second H.264/AAC clip of noisy test pattern at ~28 Mbit/s: about 14 MB, so the upload screen
 * sends it in three 5 MB chunks, and it packages by remuxing in a second or two. Made once per machine.
 */
export async function makeUploadClip(): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, 'upload-4s-28mbps.mp4');
  if (await stat(file).catch(() => null)) return file;
  const temp = `${file}.${process.pid}.tmp.mp4`;
  await run('ffmpeg', [
    '-v', 'error', '-y',
    '-f', 'lavfi', '-i', 'testsrc2=s=960x540:r=25,noise=alls=30:allf=t+u,format=yuv420p',
    '-f', 'lavfi', '-i', 'sine=frequency=440',
    '-t', '4',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', '28M', '-maxrate', '28M', '-bufsize', '8M', '-g', '25',
    '-c:a', 'aac', '-b:a', '64k', '-shortest', '-movflags', '+faststart', temp,
  ]); // prettier-ignore
  await rename(temp, file);
  return file;
}

/** A 1280x720 PNG (the recommended thumbnail size) as a file to pick. */
export async function makeThumbnailFile(name: string, from: string, to: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `${name}.png`);
  await run('ffmpeg', [
    '-v', 'error', '-y',
    '-f', 'lavfi', '-i', `gradients=s=1280x720:c0=0x${from}:c1=0x${to}:x0=0:y0=0:x1=1280:y1=720:d=1`,
    '-frames:v', '1', file,
  ]); // prettier-ignore
  return file;
}

/** Writes `text` to a temporary file named `name` (a CSV to import). */
export async function writeTempFile(name: string, text: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `${process.pid}-${name}`);
  await writeFile(file, text);
  return file;
}

/**
 * Signs in through the admin login screen and lands on the dashboard, taking the second step as a
 * person would: the first time, sets up two-step sign-in (reads the secret shown as text, types the
 * code an authenticator app would show, saves the recovery codes); afterwards types the code.
 * `shots`: screenshots of the second-step screens (1280 and 390 px); `password`: one the admin changed to;
 * `username`: another staff account (an instructor signs in the same way).
 */
export async function adminSignIn(
  page: Page,
  lectern: Lectern,
  {
    shots = false,
    password = lectern.adminPassword,
    username = 'admin',
  }: { shots?: boolean; password?: string; username?: string } = {},
): Promise<void> {
  await page.goto(`${lectern.url}/adminlogin`);
  await page.getByLabel('Username or e-mail').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  const enrol = page.getByRole('heading', { name: 'Set up two-step sign-in', exact: true });
  const codeStep = page.getByRole('heading', { name: 'Two-step sign-in', exact: true });
  await expect(enrol.or(codeStep)).toBeVisible();
  // The same holder as the API clients' (test/support/admin-factor.ts): one phone per admin and server.
  const held = heldFactor(lectern.url, username);
  if (await enrol.isVisible()) {
    await setUpTwoStep(page, lectern, username, shots);
  } else {
    if (!held) throw new Error('the admin has a second factor this run never saw set up');
    if (shots) await adminShots(page, 'admin-mfa-code');
    let next = nextCode(held, new Date());
    if (!next) {
      // Both allowed steps were used (two sign-ins within 30 s): the app shows the next code soon.
      const waitMs = held.lastStep * PERIOD_MS - Date.now() + 50;
      console.warn(
        `[admin-factor] ${username}: waiting ${(waitMs / 1000).toFixed(1)} s for the next TOTP step`,
      );
      await page.waitForTimeout(waitMs);
      next = nextCode(held, new Date())!;
    }
    held.lastStep = next.step;
    await page.getByLabel('Authentication code').fill(next.code);
    await page.getByRole('button', { name: 'Verify' }).click();
  }
  await expect(page).toHaveURL(/\/admindashboard$/);
  await expect(page.getByRole('heading', { name: 'Courses Overview' })).toBeVisible();
}

/**
 * The set-up step on screen ("Set up two-step sign-in"), taken as a person with an authenticator app
 * would: the secret read as text, its code typed, the recovery codes saved.
 */
async function setUpTwoStep(page: Page, lectern: Lectern, username: string, shots: boolean) {
  const secret = (await page.getByTestId('mfa-secret').innerText()).replace(/\s+/g, '');
  if (shots) await adminShots(page, 'admin-mfa-enrol');
  const step = Math.floor(Date.now() / PERIOD_MS);
  await page.getByLabel('Authentication code').fill(totpAt(secret, step));
  await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
  const codes = page.getByTestId('recovery-codes');
  await expect(codes).toBeVisible();
  const recoveryCodes = (await codes.innerText()).split(/\s+/).filter(Boolean);
  expect(recoveryCodes).toHaveLength(10);
  holdFactor(lectern.url, username, { secret, recoveryCodes, lastStep: step });
  if (shots) await adminShots(page, 'admin-mfa-recovery-codes');
  await page.getByLabel('I have saved them').check();
  await page.getByRole('button', { name: 'Continue' }).click();
}

/**
 * Opens the set-up link mailed to a new staff member (`email`, after the first `after` mails) as
 * they would: /adminsetup#token, a password chosen twice, then two-step sign-in; lands on the dashboard.
 */
export async function setUpThroughLink(
  page: Page,
  lectern: Lectern,
  {
    email,
    username,
    password,
    after = 0,
  }: { email: string; username: string; password: string; after?: number },
): Promise<void> {
  const token = setupLinkToken((await lectern.smtp.waitFor(email, after)).text);
  await page.goto(`${lectern.url}/adminsetup#${token}`);
  await page.getByLabel('New password', { exact: true }).fill(password);
  await page.getByLabel('Confirm new password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByRole('heading', { name: 'Set up two-step sign-in', exact: true })).toBeVisible();
  await setUpTwoStep(page, lectern, username, false);
  await expect(page).toHaveURL(/\/admindashboard$/);
}

/** Picks `file` through the file chooser that clicking `trigger` opens (as a person would). */
export async function chooseFile(page: Page, trigger: Locator, file: string): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await trigger.click();
  await (await chooser).setFiles(file);
}

/** Goes to an admin screen by its address, as a bookmark would. */
export async function openScreen(
  page: Page,
  lectern: Lectern,
  route: string,
  heading: string,
): Promise<void> {
  await page.goto(`${lectern.url}${route}`);
  await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
}

/**
 * A toast (top-right, SPEC.md section 8) whose message is exactly this text. Earlier toasts with the
 * same words may still be fading out, so any one of them counts.
 */
export function toastWith(page: Page, text: string | RegExp): Locator {
  const message = typeof text === 'string' ? page.getByText(text, { exact: true }) : page.getByText(text);
  return page.locator('.mantine-Notification-root').filter({ has: message }).first();
}

/** Screenshots at 1280 and 390 px (see `screenshots`) with the toasts hidden, so they cover nothing. */
export async function adminShots(page: Page, name: string): Promise<void> {
  await screenshots(page, name, { hideToasts: true });
}
