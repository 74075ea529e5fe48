import { formatMoment } from '../../contract/learning';
import type { Mail } from '../mail/mailer';

/** The asker learns their question was answered: where, and that the answer waits on the player. */
export function answeredMail(
  productName: string,
  asker: { email: string; name: string; videoTitle: string },
  question: { title: string; t: number },
): Mail {
  return {
    to: asker.email,
    subject: `${productName}: your question was answered`,
    text: [
      `Hello ${asker.name},`,
      '',
      `Your question "${question.title}" at ${formatMoment(question.t)} of "${asker.videoTitle}" has a new answer.`,
      `Open the lecture on ${productName} and look under Questions to read it.`,
    ].join('\n'),
  };
}
