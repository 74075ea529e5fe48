import type { FastifyInstance, FastifyRequest } from 'fastify';
import { escapeHtml } from './escape-html';
import { FIRST_ANSWERS_ELEMENT_ID, firstAnswerKey, type FirstAnswers } from '../../contract/first-answers';

/** One request a page's first screen makes, as the web app's client sends it. */
export interface FirstCall {
  method: 'GET' | 'POST';
  url: string;
  body?: Record<string, string>;
}

/** What a student page asks before it can show anything (route-preloads.ts names them per page). */
export interface FirstScreen {
  /** Asked for anyone: the opening hours, the session check. */
  anyone: readonly FirstCall[];
  /** Asked only when the session check says a student with a full session opened the page. */
  student?: readonly FirstCall[];
  /** The picture the page opens on, read from the answers: preloaded at the highest priority. */
  picture?: (answer: (call: FirstCall) => unknown) => string | undefined;
}

const bodyText = (call: FirstCall) => (call.body ? JSON.stringify(call.body) : undefined);
const keyOf = (call: FirstCall) => firstAnswerKey(call.method, call.url, bodyText(call));

/**
 * The first screen's answers for this request, asked of this server in-process (`inject`: the
 * same routes, session check, opening gate and access rules as over the network) with the
 * request's own cookie, host and address. Only 2xx answers are kept: the page asks again for the
 * others, as it did before.
 */
export async function askFirstAnswers(
  app: FastifyInstance,
  request: FastifyRequest,
  screen: FirstScreen,
): Promise<{ answers: FirstAnswers; picture?: string }> {
  const answers: FirstAnswers = {};
  const headers: Record<string, string> = { host: request.headers.host ?? 'localhost' };
  if (request.headers.cookie) headers.cookie = request.headers.cookie;
  if (request.headers['user-agent']) headers['user-agent'] = request.headers['user-agent'];
  const ask = async (call: FirstCall) => {
    const payload = bodyText(call);
    const res = await app.inject({
      method: call.method,
      url: call.url,
      headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      payload,
      remoteAddress: request.ip,
    });
    if (res.statusCode >= 200 && res.statusCode < 300) answers[keyOf(call)] = res.json();
  };
  await Promise.all(screen.anyone.map(ask));
  const check = answers[firstAnswerKey('GET', '/api/auth/check')] as
    { valid?: boolean; role?: string; firstlogin?: boolean } | undefined;
  if (screen.student && check?.valid && check.role === 'student' && !check.firstlogin) {
    await Promise.all(screen.student.map(ask));
  }
  const picture = screen.picture?.((call) => answers[keyOf(call)]);
  return { answers, picture };
}

/** JSON safe inside a `<script>` element: no `</script>`, `<!--` or line separators can end it early. */
const scriptSafe = (json: string) =>
  json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * The tags that carry them in the page's `<head>`: a JSON data block (not a script: the strict CSP
 * allows no inline script, and a data block runs nothing) and, for a picture, a high-priority
 * preload, so it downloads beside the code instead of after it.
 */
export function firstAnswersTags({ answers, picture }: { answers: FirstAnswers; picture?: string }): string {
  const data = `<script type="application/json" id="${FIRST_ANSWERS_ELEMENT_ID}">${scriptSafe(JSON.stringify(answers))}</script>`;
  const image = picture?.startsWith('/')
    ? `<link rel="preload" as="image" fetchpriority="high" href="${escapeHtml(picture)}">`
    : '';
  return image + data;
}
