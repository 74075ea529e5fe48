import { completeAdminSignIn, proveFactorAgain } from './admin-factor';

export interface TestResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** fetch with a cookie jar, the way a browser tab talks to the server (minus the Origin header). */
export class TestClient {
  readonly cookies = new Map<string, string>();
  /** The server's clock, for second-factor codes (a test server sets its fake clock). */
  serverNow: () => Date = () => new Date();
  /** Whether serverNow moves by itself (it may then wait for the next 30 s step). */
  realClock = true;
  /** Renews the admin's recovery codes when a still clock left no code (test-server.ts sets it). */
  moreRecoveryCodes?: (username: string) => Promise<string[]>;
  /**
   * An admin who signs in again when the session would have ended (30 min idle, 12 h) because a test
   * moved the server's clock forward: test-server.ts `adminClient()` sets it, a test of those limits not.
   */
  staySignedInAs?: { username: string; password: string };
  /** The admin this client last signed in as (for `proveFactor`). */
  adminUsername?: string;
  private signedInAt = 0;
  private lastSeenAt = 0;
  private signingIn = false;

  /** `send`: another fetch, e.g. one trusting a test certificate (test/support/tls.ts). */
  constructor(
    readonly baseUrl: string,
    private readonly send: typeof fetch = fetch,
  ) {}

  get token(): string | undefined {
    return this.cookies.get('token');
  }

  async request<T = any>(
    method: string,
    path: string,
    options: { json?: unknown; body?: BodyInit; headers?: Record<string, string> } = {},
  ): Promise<TestResponse<T>> {
    if (this.staySignedInAs && !this.signingIn) {
      const now = this.serverNow().getTime();
      if (now - this.lastSeenAt > 25 * 60_000 || now - this.signedInAt > 11 * 3600_000) {
        this.signingIn = true;
        try {
          await this.adminLogin(this.staySignedInAs);
        } finally {
          this.signingIn = false;
        }
      }
    }
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let body = options.body;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    const res = await this.send(new URL(path, this.baseUrl), { method, headers, body, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) this.storeCookie(line);
    this.lastSeenAt = this.serverNow().getTime();
    const text = await res.text();
    let parsed: unknown = text;
    if (res.headers.get('content-type')?.includes('json') && text) parsed = JSON.parse(text);
    return { status: res.status, body: parsed as T, headers: res.headers };
  }

  get<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>('GET', path, { headers });
  }

  post<T = any>(path: string, json: unknown = {}, headers?: Record<string, string>) {
    return this.request<T>('POST', path, { json, headers });
  }

  /** The student sign-in, POST /api/signin (a test account, or a username with another password). */
  signIn<T = any>({ username, password }: { username: string; password: string }) {
    return this.post<T>('/api/signin', { username, password });
  }

  /**
   * The admin sign-in, POST /api/admin/login, then its second step as the admin would take it
   * (setting up the factor the first time, a code after): test/support/admin-factor.ts. Answers the
   * password's answer when it was refused, else the second step's.
   */
  async adminLogin<T = any>({ username, password }: { username: string; password: string }) {
    this.signedInAt = this.serverNow().getTime();
    this.adminUsername = username;
    const first = await this.post<T>('/api/admin/login', { username, password });
    return completeAdminSignIn(this, username, first, {
      now: this.serverNow,
      realClock: this.realClock,
      moreRecoveryCodes: this.moreRecoveryCodes,
    }) as Promise<TestResponse<T>>;
  }

  /**
   * Proves the signed-in admin's second factor again (POST /api/admin/mfa/verify): sensitive routes
   * (route table `freshFactor`) want it within 10 minutes, which a test moving the clock outruns.
   */
  proveFactor<T = any>() {
    if (!this.adminUsername) throw new Error('proveFactor: this client never signed in as an admin');
    return proveFactorAgain(this, this.adminUsername, { now: this.serverNow }) as Promise<TestResponse<T>>;
  }

  /** The password step alone (POST /api/admin/login): a test of the second step itself. */
  adminPassword<T = any>({ username, password }: { username: string; password: string }) {
    return this.post<T>('/api/admin/login', { username, password });
  }

  /** A new password with the mailed one-time code, POST /api/password/reset. */
  resetPassword<T = any>(otp: string, newpassword: string) {
    return this.post<T>('/api/password/reset', { otp, newpassword });
  }

  private storeCookie(line: string) {
    const [pair = '', ...attributes] = line.split(';');
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    const expired = attributes.some((a) => {
      const [k = '', v = ''] = a.trim().split('=');
      return (
        (k.toLowerCase() === 'max-age' && Number(v) <= 0) ||
        (k.toLowerCase() === 'expires' && new Date(v) < new Date())
      );
    });
    if (expired || value === '') this.cookies.delete(name);
    else this.cookies.set(name, value);
  }
}
