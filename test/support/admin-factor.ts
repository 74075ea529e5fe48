import { generateSync } from 'otplib';

/** What the second step needs of a client (http-client.ts's TestClient, without importing it: no cycle). */
interface Poster {
  readonly baseUrl: string;
  post(path: string, json?: unknown): Promise<Answer>;
}
interface Answer {
  status: number;
  body: any;
}

/**
 * The test admins' second factor, as a person with an authenticator app would hold it: every admin a
 * test signs in enrols through the real screens' routes on first sign-in (POST /api/admin/mfa/enrolment
 * and /enrol), and later sign-ins answer the real second step (POST /api/admin/login/totp) with a
 * code computed by otplib from the secret the server showed. Kept per server and username.
 */
export interface Held {
  secret: string;
  recoveryCodes: string[];
  /** The last 30 s step a code was given for: the server takes each step once. */
  lastStep: number;
}

const held = new Map<string, Held>();
/**
 * The factor last held under a username, whatever the server: the same database behind a server
 * restarted on another port (main.int, the fault tests) keeps the admin's factor.
 */
const latestByName = new Map<string, Held>();
const keyOf = (baseUrl: string, username: string) => `${baseUrl} ${username.toLowerCase()}`;

/** The admin's factor as held (mutable: `lastStep` moves with each code given), once enrolled. */
export function heldFactor(baseUrl: string, username: string): Held | undefined {
  return held.get(keyOf(baseUrl, username));
}

/** Holds an admin's factor that a test set up outside the sign-in (test-server.ts `createAdmin`). */
export function holdFactor(baseUrl: string, username: string, factor: Held): void {
  const copy = { ...factor, recoveryCodes: [...factor.recoveryCodes] };
  held.set(keyOf(baseUrl, username), copy);
  latestByName.set(username.toLowerCase(), copy);
}

/**
 * Forget every factor held: a new test file's servers are new schools, whatever port they reuse
 * (test/support/per-file-setup.ts, for the tiers that share modules between files).
 */
export function forgetAllFactors(): void {
  held.clear();
  latestByName.clear();
}

/** Forget what we hold (the server's factor was reset, e.g. `mfa:reset` or a fresh database). */
export function forgetFactor(baseUrl: string, username: string): void {
  held.delete(keyOf(baseUrl, username));
}

export const PERIOD_MS = 30_000;

/** The code of `secret` for the 30 s step `step`. */
export function totpAt(secret: string, step: number): string {
  return generateSync({ secret, epoch: step * 30 });
}

/**
 * A code the server will take now (`now`: the server's clock): the current step's, or the next
 * one's when the current was used (one step either side is allowed); undefined when both were, and
 * the caller must wait for the next step or use a recovery code.
 */
export function nextCode(h: Held, now: Date): { code: string; step: number } | undefined {
  const current = Math.floor(now.getTime() / PERIOD_MS);
  const step = Math.max(current, h.lastStep + 1);
  if (step > current + 1) return undefined;
  return { code: totpAt(h.secret, step), step };
}

/**
 * Proves the admin's factor again on a signed-in session (POST /api/admin/mfa/verify), as the
 * "Confirm it's you" prompt does before a sensitive route: a test that moved the server's clock past
 * the 10 fresh minutes calls it. Answers the verify's response.
 */
export async function proveFactorAgain(
  client: Poster,
  username: string,
  { now = () => new Date() }: { now?: () => Date } = {},
): Promise<Answer> {
  const h = held.get(keyOf(client.baseUrl, username)) ?? latestByName.get(username.toLowerCase());
  if (!h) throw new Error(`admin ${username} has a second factor this test never saw enrolled`);
  const next = nextCode(h, now());
  if (!next) {
    const recovery = h.recoveryCodes.shift();
    if (!recovery) throw new Error(`admin ${username}: no TOTP step nor recovery code left at this clock`);
    return client.post('/api/admin/mfa/verify', { code: recovery });
  }
  h.lastStep = next.step;
  return client.post('/api/admin/mfa/verify', { code: next.code });
}

/**
 * Takes the second step after `first` (the answer to POST /api/admin/login) when it asks for one:
 * sets up the factor (`next: 'enrol'`) or gives a code (`next: 'totp'`). Answers the last response.
 * `now` is the server's clock (a test server's fake clock, or the wall clock); `wait` may sleep for
 * the next step when both allowed steps were used (real clocks), else a recovery code is given.
 */
export async function completeAdminSignIn(
  client: Poster,
  username: string,
  first: Answer,
  {
    now = () => new Date(),
    realClock = false,
    moreRecoveryCodes,
  }: {
    now?: () => Date;
    realClock?: boolean;
    /** New recovery codes for the admin, as one who renewed them (a test server whose clock stands still). */
    moreRecoveryCodes?: (username: string) => Promise<string[]>;
  } = {},
): Promise<Answer> {
  if (first.status !== 200 || !first.body?.next) return first;
  const key = keyOf(client.baseUrl, username);
  if (first.body.next === 'enrol') {
    const enrolment = await client.post('/api/admin/mfa/enrolment');
    if (enrolment.status !== 200) return enrolment;
    const secret = enrolment.body.secret as string;
    const step = Math.floor(now().getTime() / PERIOD_MS);
    const done = await client.post('/api/admin/mfa/enrol', { code: totpAt(secret, step) });
    if (done.status === 200)
      holdFactor(client.baseUrl, username, {
        secret,
        recoveryCodes: done.body.recoveryCodes,
        lastStep: step,
      });
    return done;
  }
  const h = held.get(key) ?? latestByName.get(username.toLowerCase());
  if (!h) throw new Error(`admin ${username} has a second factor this test never saw enrolled`);
  let next = nextCode(h, now());
  if (!next && realClock) {
    // Both allowed steps were used: the next one starts at the last step's start.
    const waitMs = h.lastStep * PERIOD_MS - Date.now() + 50;
    // Said aloud: these waits are test time no assertion needs (docs/TESTING.md).
    console.warn(
      `[admin-factor] ${username}: waiting ${(waitMs / 1000).toFixed(1)} s for the next TOTP step`,
    );
    await new Promise((resolve) => setTimeout(resolve, waitMs));
    next = nextCode(h, now());
  }
  if (!next) {
    if (!h.recoveryCodes.length && moreRecoveryCodes)
      h.recoveryCodes.push(...(await moreRecoveryCodes(username)));
    const recovery = h.recoveryCodes.shift();
    if (!recovery) throw new Error(`admin ${username}: no TOTP step nor recovery code left at this clock`);
    return client.post('/api/admin/login/totp', { code: recovery });
  }
  h.lastStep = next.step;
  return client.post('/api/admin/login/totp', { code: next.code });
}
