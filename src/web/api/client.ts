import { serverMessages } from '../../contract/messages';
import type { Answer, PathParams, Sent } from '../../contract/route-kit';
import { splitRouteKey } from '../../contract/route-kit';
import type { RouteKey, Routes } from '../../contract/routes';
import { takeFirstAnswer } from './first-answers';

/**
 * The one HTTP client of the web app: same-origin JSON with the session cookie, no default
 * time-out (SPEC.md section 7). Calls name a route of src/contract/routes.ts and are typed by it;
 * only types come from the table, so no schema (and no zod) reaches the bundle.
 */

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

export interface RequestOptions {
  signal?: AbortSignal;
  /** Lets the request outlive the page (saves made while leaving it). */
  keepalive?: boolean;
  headers?: Record<string, string>;
}

/** Routes that answer JSON: the ones the client calls. */
export type JsonRouteKey = {
  [K in RouteKey]: Routes[K] extends { response: unknown } ? K : never;
}[RouteKey];

type BodyInput<R> = R extends { body: unknown }
  ? { body: Sent<R, 'body'> }
  : R extends { multipart: unknown }
    ? { form: FormData }
    : { body?: undefined };
/** Query parameters by the schema's names; any value is sent as its text. */
type QueryInput<R> = R extends { query: unknown }
  ? { query?: { [K in keyof Sent<R, 'query'>]?: string | number | boolean } }
  : unknown;
type ParamsInput<K extends string> = [PathParams<K>] extends [never]
  ? unknown
  : { params: Record<PathParams<K>, string> } | { url: string };

/** What a call of route `K` sends: its body, query and path parameters, as the table types them. */
export type CallInput<K extends JsonRouteKey> = BodyInput<Routes[K]> &
  QueryInput<Routes[K]> &
  ParamsInput<K> &
  RequestOptions;

/** The answer of route `K`. */
export type AnswerOf<K extends JsonRouteKey> = Answer<Routes[K]>;

type Loose = {
  body?: unknown;
  form?: FormData;
  query?: Record<string, unknown>;
  params?: Record<string, string>;
  url?: string;
} & RequestOptions;

/** The URL of a call: the path with its parameters filled in (or the URL the server gave), and the query. */
function urlOf(path: string, input: Loose): string {
  let url =
    input.url ?? path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(input.params![name]!));
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(input.query ?? {})) {
    if (value !== undefined && value !== null && value !== '') query.set(key, String(value));
  }
  const search = query.toString();
  if (search) url += `?${search}`;
  return url;
}

/**
 * Asks the admin to prove their second factor again (the "Confirm it's you" modal the back office
 * mounts): true once POST /api/admin/mfa/verify took a code, false when they gave up.
 */
export type FactorPrompt = () => Promise<boolean>;

let factorPrompt: FactorPrompt | null = null;
/** The prompt on screen: requests refused together wait for the same one. */
let openPrompt: Promise<boolean> | null = null;

/** Registers the prompt (the admin layout, while mounted); returns its removal. */
export function setFactorPrompt(prompt: FactorPrompt): () => void {
  factorPrompt = prompt;
  return () => {
    if (factorPrompt === prompt) factorPrompt = null;
  };
}

/** A sensitive admin route's refusal (route table `freshFactor`): the second factor is older than 10 minutes. */
export function isStaleFactor(error: unknown): boolean {
  return error instanceof ApiError && error.status === 403 && error.message === serverMessages.mfaFreshFactor;
}

/** Shows the prompt (or joins the one on screen); false when none is mounted. */
export function promptForFactor(): Promise<boolean> {
  if (!factorPrompt) return Promise.resolve(false);
  openPrompt ??= factorPrompt().finally(() => {
    openPrompt = null;
  });
  return openPrompt;
}

/**
 * Before a large upload to a sensitive route: asks for the code first unless the factor stays fresh
 * for another minute (GET /api/admin/mfa). The server refuses a stale factor before reading the body,
 * but the browser would send the whole file before it saw the refusal, then send it again.
 */
export async function proveFactorFirst(): Promise<void> {
  const status = await call('GET /api/admin/mfa');
  if (!status.enrolled) return;
  if (status.freshUntil && Date.parse(status.freshUntil) - Date.now() > 60_000) return;
  if (!(await promptForFactor())) throw new ApiError(403, serverMessages.mfaFreshFactor);
}

/**
 * Sends a request; when a sensitive route refuses it for a stale second factor, asks for a code
 * (promptForFactor) and sends it once more. The one place the web app handles that refusal.
 */
async function withFreshFactor<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (error) {
    if (!isStaleFactor(error) || !(await promptForFactor())) throw error;
    return send();
  }
}

/** Calls route `key`; a non-2xx answer throws an ApiError with the server's message. */
export async function call<K extends JsonRouteKey>(
  key: K,
  ...[input = {} as CallInput<K>]: object extends CallInput<K>
    ? [input?: CallInput<K>]
    : [input: CallInput<K>]
): Promise<AnswerOf<K>> {
  const { method, path } = splitRouteKey(key);
  const loose = input as Loose;
  const json = loose.body !== undefined;
  const url = urlOf(path, loose);
  const bodyText = json ? JSON.stringify(loose.body) : undefined;
  const first = loose.form ? undefined : takeFirstAnswer(method, url, bodyText);
  if (first !== undefined) return first as AnswerOf<K>;
  return withFreshFactor(async () => {
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        credentials: 'same-origin',
        headers: { ...(json ? { 'content-type': 'application/json' } : {}), ...loose.headers },
        body: loose.form ?? bodyText,
        signal: loose.signal,
        keepalive: loose.keepalive,
      });
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      throw new ApiError(0, '');
    }
    return answerOf<K>(response.status, await response.text());
  });
}

/**
 * The `queryFn` of a load of route `key`: the call with the query's abort signal (a load nobody
 * waits for any more stops its request), its answer or the part `pick` takes from it. A load whose
 * refetchInterval reads its data keeps its own queryFn: TypeScript cannot infer the data through both.
 */
export function calling<K extends JsonRouteKey>(key: K, input: CallInput<K>): LoadFn<AnswerOf<K>>;
export function calling<K extends JsonRouteKey, T>(
  key: K,
  input: CallInput<K>,
  pick: (answer: AnswerOf<K>) => T,
): LoadFn<T>;
export function calling<K extends JsonRouteKey>(
  key: K,
  input: CallInput<K>,
  pick = (answer: AnswerOf<K>): unknown => answer,
): LoadFn<unknown> {
  return ({ signal }) => call<K>(key, { ...input, signal }).then(pick);
}

/** A react-query `queryFn` as `calling` makes it: it only needs the abort signal of the context. */
type LoadFn<T> = (context: { signal: AbortSignal }) => Promise<T>;

/** A response's JSON, or the ApiError of a status outside 2xx with the server's message. */
function answerOf<K extends JsonRouteKey>(status: number, text: string): AnswerOf<K> {
  let data: Record<string, unknown>;
  try {
    data = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    data = {}; // a proxy's HTML error page: the status still tells what happened
  }
  if (status < 200 || status > 299)
    throw new ApiError(status, typeof data.message === 'string' ? data.message : '', data);
  return data as AnswerOf<K>;
}

/** Routes that take a multipart form (file uploads). */
export type FormRouteKey = {
  [K in JsonRouteKey]: Routes[K] extends { multipart: unknown } ? K : never;
}[JsonRouteKey];

/**
 * Sends a form to a multipart route as `call` does, over XMLHttpRequest: `onUpload` hears how many
 * bytes of the body went out (fetch cannot tell), for an upload's progress bar.
 */
export function upload<K extends FormRouteKey>(
  key: K,
  input: CallInput<K> & { form: FormData; onUpload?(sent: number, total: number): void },
): Promise<AnswerOf<K>> {
  const { method, path } = splitRouteKey(key);
  const loose = input as Loose & { onUpload?(sent: number, total: number): void };
  return withFreshFactor(() => sendForm<K>(method, path, loose));
}

function sendForm<K extends FormRouteKey>(
  method: string,
  path: string,
  loose: Loose & { onUpload?(sent: number, total: number): void },
): Promise<AnswerOf<K>> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(method, urlOf(path, loose));
    for (const [name, value] of Object.entries(loose.headers ?? {})) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => loose.onUpload?.(event.loaded, event.total);
    request.onload = () => {
      try {
        resolve(answerOf<K>(request.status, request.responseText));
      } catch (error) {
        reject(error);
      }
    };
    request.onerror = () => reject(new ApiError(0, ''));
    request.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    loose.signal?.addEventListener('abort', () => request.abort(), { once: true });
    request.send(loose.form!);
  });
}

/**
 * The server's message when it gave one, else the screen's own fallback: only for the toasts where
 * SPEC.md section 8 prefers the server's words (logins, reset, logout, video update). Every other
 * failure toast is the catalogue's text exactly; `reasonOf` may show the server's words beside it.
 */
export function messageOf(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.message ? error.message : fallback;
}

/** Why the server refused, when it said so: shown beside a form whose toast keeps the catalogue's text. */
export function reasonOf(error: unknown): string | null {
  return (error instanceof ApiError || error instanceof Error) && error.message ? error.message : null;
}
