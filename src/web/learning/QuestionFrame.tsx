import { formatMoment, type Question } from '../../contract/learning';
import classes from './Learning.module.css';

/**
 * The small frame of the question's moment, taken by the server from the video (never a student's
 * screen, so no watermark): nothing until the server has taken it.
 */
export function QuestionFrame({ question }: { question: Pick<Question, 'frameUrl' | 't'> }) {
  if (!question.frameUrl) return null;
  return (
    <img
      className={classes.frame}
      src={question.frameUrl}
      alt={`The lecture at ${formatMoment(question.t)}, where the question was asked`}
      width={320}
      height={180}
      loading="lazy"
      decoding="async"
    />
  );
}
