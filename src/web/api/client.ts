/** The one HTTP client of the web app: same-origin JSON with the session cookie, no default time-out (SPEC.md section 7). */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

interface RequestOptions {
  signal?: AbortSignal;
  /** Lets the request outlive the page (saves made while leaving it). */
  keepalive?: boolean;
}

async function request<T>(
  method: string,
  path: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers:
        body === undefined
          ? { accept: 'application/json' }
          : { 'content-type': 'application/json', accept: 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: options.signal,
      keepalive: options.keepalive,
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, '');
  }
  const text = await response.text();
  let data: Record<string, unknown>;
  try {
    data = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    data = {}; // a proxy's HTML error page: the status still tells what happened
  }
  if (!response.ok)
    throw new ApiError(response.status, typeof data.message === 'string' ? data.message : '', data);
  return data as T;
}

export const api = {
  get: <T>(path: string, signal?: AbortSignal) => request<T>('GET', path, undefined, { signal }),
  post: <T>(path: string, body: unknown = {}, options?: AbortSignal | RequestOptions) =>
    request<T>('POST', path, body, options instanceof AbortSignal ? { signal: options } : options),
  delete: <T>(path: string) => request<T>('DELETE', path),
};

/** The server's message when it gave one, else the screen's own fallback (the spec prefers the server's words). */
export function messageOf(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.message ? error.message : fallback;
}
