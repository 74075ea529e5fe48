import { expect, test, type Page } from '@playwright/test';
import { serverMessages } from '../src/contract/messages';
import { adminShots, adminSignIn, toastWith } from './admin-setup';
import { startLectern, type Lectern } from './lectern';

/**
 * Passkeys as an admin's second factor, in Chromium with its virtual authenticator (CDP WebAuthn
 * domain: a platform authenticator that verifies the user and keeps resident keys). The page is
 * opened at http://localhost:PORT: WebAuthn refuses IP addresses, and the server's PUBLIC_URL
 * defaults to localhost for its loopback HOST.
 */

let lectern: Lectern;
let site: Lectern;

test.beforeAll(async () => {
  lectern = await startLectern();
  site = { ...lectern, url: lectern.url.replace('127.0.0.1', 'localhost') };
});
test.afterAll(async () => lectern?.stop());

async function passwordStep(page: Page) {
  await page.goto(`${site.url}/adminlogin`);
  await page.getByLabel('Username or e-mail').fill('admin');
  await page.getByLabel('Password', { exact: true }).fill(site.adminPassword);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('heading', { name: 'Two-step sign-in', exact: true })).toBeVisible();
}

async function signOut(page: Page) {
  // The sign-in's toast shows below the top bar (Toaster.tsx), not over Logout.
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/adminlogin$/);
}

/** Posts JSON as the page's session (its cookies) and answers the status and body. */
async function post(page: Page, path: string, data?: unknown) {
  const reply = await page.request.post(`${site.url}${path}`, data === undefined ? {} : { data });
  return { status: reply.status(), body: (await reply.json()) as Record<string, unknown> };
}

test('an admin adds a passkey, signs in with it, and a removed, replayed or forged one is refused', async ({
  page,
}) => {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });

  await test.step('signed in with password and app code, the admin adds a passkey on /adminpasskeys', async () => {
    // The first sign-in sets up the app (the enrol step also offers "Use a passkey instead").
    await adminSignIn(page, site, { shots: true });
    // The admin menu lists it (the drawer on a phone).
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await page.getByRole('dialog').getByRole('link', { name: 'Passkeys' }).click();
    await expect(page).toHaveURL(/\/adminpasskeys$/);
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(page.getByRole('heading', { name: 'Passkeys', level: 1 })).toBeVisible();
    await expect(page.getByTestId('no-passkeys')).toBeVisible();
    await page.getByLabel('Name of the new passkey').fill('Test laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await expect(toastWith(page, serverMessages.passkeyAdded)).toBeVisible();
    const list = page.getByRole('list', { name: 'Your passkeys' });
    await expect(list.getByText('Test laptop')).toBeVisible();
    await expect(list.getByText(/last used never/)).toBeVisible();
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    await adminShots(page, 'admin-passkeys');
  });

  let assertion: Record<string, unknown> | undefined;
  await test.step('signed out, the admin signs in with the password, then the passkey', async () => {
    await signOut(page);
    await passwordStep(page);
    const use = page.getByRole('button', { name: 'Use a passkey' });
    await expect(use).toBeVisible();
    await expect(page.getByLabel('Authentication code')).toBeVisible();
    await adminShots(page, 'admin-mfa-code-passkey');
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/admin/login/passkey'))
        assertion = request.postDataJSON() as Record<string, unknown>;
    });
    await use.click();
    await expect(page).toHaveURL(/\/admindashboard$/);
    await expect(page.getByRole('heading', { name: 'Courses Overview' })).toBeVisible();
    expect(assertion).toBeDefined();
  });

  await test.step('a replayed or forged assertion, posted directly, is refused with a message', async () => {
    await signOut(page);
    await passwordStep(page);
    // No ceremony pending: the assertion that just signed in is refused.
    const replay = await post(page, '/api/admin/login/passkey', assertion);
    expect(replay).toEqual({ status: 401, body: { message: serverMessages.passkeyFailed } });
    // A new challenge pending: the old assertion signed another one.
    expect((await post(page, '/api/admin/login/passkey/options')).status).toBe(200);
    const stale = await post(page, '/api/admin/login/passkey', assertion);
    expect(stale).toEqual({ status: 401, body: { message: serverMessages.passkeyFailed } });
    // A forged signature.
    expect((await post(page, '/api/admin/login/passkey/options')).status).toBe(200);
    const credential = assertion!.credential as { response: Record<string, string> };
    const forged = {
      credential: {
        ...credential,
        response: { ...credential.response, signature: 'MEUCIQDforgedforgedforged' },
      },
    };
    expect(await post(page, '/api/admin/login/passkey', forged)).toEqual({
      status: 401,
      body: { message: serverMessages.passkeyFailed },
    });
    // Malformed: the schema's 400, with a message.
    const malformed = await post(page, '/api/admin/login/passkey', { credential: { id: 'x' } });
    expect(malformed.status).toBe(400);
    expect(typeof malformed.body.message).toBe('string');
    // Still signed out of the admin screens; the real passkey still works.
    expect((await page.request.get(`${site.url}/api/admin/course/list`)).status()).toBe(403);
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await expect(page).toHaveURL(/\/admindashboard$/);
  });

  await test.step('the admin removes the passkey; it no longer signs in', async () => {
    await page.goto(`${site.url}/adminpasskeys`);
    const list = page.getByRole('list', { name: 'Your passkeys' });
    await expect(list.getByText(/last used \d/)).toBeVisible();
    await page.getByRole('button', { name: 'Remove Test laptop' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await expect(toastWith(page, serverMessages.passkeyRemoved)).toBeVisible();
    await expect(page.getByTestId('no-passkeys')).toBeVisible();

    await signOut(page);
    await passwordStep(page);
    await expect(page.getByRole('button', { name: 'Use a passkey' })).toHaveCount(0);
    expect(await post(page, '/api/admin/login/passkey/options')).toEqual({
      status: 403,
      body: { message: serverMessages.passkeyNone },
    });
    // The authenticator still holds the key: a fresh signature by it is refused all the same.
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    const signed = await page.evaluate(async (credentialId: string) => {
      const b64url = (bytes: ArrayBuffer) =>
        btoa(String.fromCharCode(...new Uint8Array(bytes)))
          .replace(/\+/g, '-')
          .replace(/\//g, '_')
          .replace(/=+$/, '');
      const raw = Uint8Array.from(atob(credentialId.replace(/-/g, '+').replace(/_/g, '/')), (c) =>
        c.charCodeAt(0),
      );
      const got = (await navigator.credentials.get({
        publicKey: {
          challenge: crypto.getRandomValues(new Uint8Array(32)),
          rpId: location.hostname,
          allowCredentials: [{ type: 'public-key', id: raw }],
        },
      })) as PublicKeyCredential;
      const response = got.response as AuthenticatorAssertionResponse;
      return {
        id: got.id,
        rawId: b64url(got.rawId),
        type: 'public-key',
        response: {
          clientDataJSON: b64url(response.clientDataJSON),
          authenticatorData: b64url(response.authenticatorData),
          signature: b64url(response.signature),
        },
        clientExtensionResults: {},
      };
    }, credentials[0]!.credentialId);
    expect(await post(page, '/api/admin/login/passkey', { credential: signed })).toEqual({
      status: 401,
      body: { message: serverMessages.passkeyFailed },
    });
    expect((await page.request.get(`${site.url}/api/admin/course/list`)).status()).toBe(403);
  });
});
