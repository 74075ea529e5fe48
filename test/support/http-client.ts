export interface TestResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** fetch with a cookie jar, the way a browser tab talks to the server (minus the Origin header). */
export class TestClient {
  readonly cookies = new Map<string, string>();

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
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let body = options.body;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    const res = await this.send(new URL(path, this.baseUrl), { method, headers, body, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) this.storeCookie(line);
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

  /** The admin sign-in, POST /api/admin/login. */
  adminLogin<T = any>({ username, password }: { username: string; password: string }) {
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
