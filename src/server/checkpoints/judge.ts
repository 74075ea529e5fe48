import { normaliseOutput, type AttemptAnswer, type CheckpointKind } from '../../contract/checkpoints';
import type { CheckpointAnswers } from '../db/schema';

/** A student's answer of the wrong shape for the checkpoint's kind (the route answers 400). */
export class AnswerShapeError extends Error {}

/**
 * Whether `answer` is right. Single: the one right choice number. Multiple: exactly the right
 * choice numbers, in any order. Output: any accepted output, after normalising line ends and
 * trailing spaces (normaliseOutput); nothing is run.
 */
export function judge(
  checkpoint: { kind: CheckpointKind; choices: string[]; answers: CheckpointAnswers },
  answer: AttemptAnswer,
): boolean {
  const inChoices = (n: number) => Number.isInteger(n) && n >= 0 && n < checkpoint.choices.length;
  switch (checkpoint.kind) {
    case 'single':
      if (typeof answer !== 'number' || !inChoices(answer)) throw new AnswerShapeError();
      return checkpoint.answers.length === 1 && checkpoint.answers[0] === answer;
    case 'multiple': {
      if (!Array.isArray(answer) || !answer.every(inChoices)) throw new AnswerShapeError();
      const given = new Set(answer);
      const right = new Set(checkpoint.answers);
      return given.size === right.size && [...given].every((n) => right.has(n));
    }
    case 'output': {
      if (typeof answer !== 'string') throw new AnswerShapeError();
      const given = normaliseOutput(answer);
      return checkpoint.answers.some((a) => typeof a === 'string' && normaliseOutput(a) === given);
    }
  }
}

/** Seconds of [from, to] that the merged `ranges` cover. */
export function coveredSeconds(
  ranges: readonly (readonly [number, number])[],
  from: number,
  to: number,
): number {
  let total = 0;
  for (const [start, end] of ranges) total += Math.max(0, Math.min(end, to) - Math.max(start, from));
  return total;
}

/** `ranges` with `added` clipped to [from, to], merged into sorted, non-overlapping ranges. */
export function mergeInto(
  ranges: readonly (readonly [number, number])[],
  added: readonly (readonly [number, number])[],
  from: number,
  to: number,
): [number, number][] {
  const all = [...ranges, ...added]
    .map(([s, e]) => [Math.max(s, from), Math.min(e, to)] as [number, number])
    .filter(([s, e]) => e > s)
    .sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [s, e] of all) {
    const last = out.at(-1);
    // Saves a second apart leave gaps of a frame or so: half a second joins them.
    if (last && s <= last[1] + 0.5) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}
