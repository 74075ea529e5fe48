import {
  FIRST_ANSWERS_ELEMENT_ID,
  FIRST_ANSWERS_MAX_AGE_MS,
  firstAnswerKey,
  type FirstAnswers,
} from '../../contract/first-answers';

/**
 * The answers the server put into this page's index.html (server/http/first-answers.ts), each
 * taken once by the first call of the same request. They belong to the page's first screen: none
 * is taken after FIRST_ANSWERS_MAX_AGE_MS, and a state-changing call (a sign-in, a sign-out, a
 * save) drops them all, so a later call never gets an answer from before it.
 */
let answers: FirstAnswers | undefined;

function load(): FirstAnswers {
  if (!answers) {
    answers = {};
    const element = document.getElementById(FIRST_ANSWERS_ELEMENT_ID);
    try {
      if (element?.textContent) answers = JSON.parse(element.textContent) as FirstAnswers;
    } catch {
      // a page without its answers asks the network, as always
    }
    element?.remove();
  }
  return answers;
}

/** The answer's body the page came with for this request, once; undefined when it must go to the network. */
export function takeFirstAnswer(method: string, url: string, bodyText?: string): unknown {
  const all = load();
  const key = firstAnswerKey(method, url, bodyText);
  const answer = all[key];
  if (answer !== undefined) delete all[key];
  else if (method !== 'GET') dropFirstAnswers();
  return performance.now() <= FIRST_ANSWERS_MAX_AGE_MS ? answer : undefined;
}

/** Forgets every answer not taken yet. */
export function dropFirstAnswers(): void {
  answers = {};
}
