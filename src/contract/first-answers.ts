/**
 * A student page's first answers, put into its index.html by the server (server/http/
 * first-answers.ts) and taken by the web app's client (web/api/first-answers.ts) instead of asking
 * them over the network once its code has run: on a phone over mobile data each of those round
 * trips costs a few hundred milliseconds before the page can show anything.
 */

/** The id of the `<script type="application/json">` element that holds them. */
export const FIRST_ANSWERS_ELEMENT_ID = 'first-answers';

/** How long after the page opened its answers may still be taken: only its first screen asks them. */
export const FIRST_ANSWERS_MAX_AGE_MS = 30_000;

/** What the element holds: the body of each 2xx answer, by `firstAnswerKey` of its request. */
export type FirstAnswers = Record<string, unknown>;

/** The one name of a request on both sides: method, URL with its query, and the JSON body sent. */
export const firstAnswerKey = (method: string, url: string, bodyText?: string) =>
  bodyText === undefined ? `${method} ${url}` : `${method} ${url} ${bodyText}`;
