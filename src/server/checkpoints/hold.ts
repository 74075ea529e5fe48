import { checkpointMessages } from '../../contract/checkpoints';
import type { AppContext } from '../context';
import type { Role } from '../db/schema';
import { forbidden } from '../errors';
import { holdOf, holdSecond, standingsOf } from './checkpoints';
import { recordRewatch } from './attempts';
import type { CompletionWatch } from './completion';

/**
 * The key route's hold (media/delivery's `KeyHold`): a student gets no key of a period that starts at
 * or after the first required checkpoint they have not passed (403). Period 0 is always served, so a
 * player can start; staff previewing are never held. Segments are ciphertext, so this holds in every
 * delivery mode: a student who defeats the player sees at most to the next key boundary.
 */
export function checkpointKeyHold(ctx: Pick<AppContext, 'db'>) {
  return async (
    user: { id: string; role: Role },
    videoId: string,
    periodStartSeconds: number,
  ): Promise<void> => {
    if (user.role !== 'student' || periodStartSeconds <= 0) return;
    const hold = await holdSecond(ctx.db, user.id, videoId);
    if (hold !== null && periodStartSeconds >= hold) throw forbidden(checkpointMessages.held);
  };
}

/**
 * The progress saves' gate (progress/routes.ts's `ProgressGate`): before a save, the second it is
 * clipped at (the hold); after it, the played ranges go to any rewatch a wrong answer asked for, and
 * a save that completed the lecture goes to the completion watch.
 */
export function checkpointProgressGate(ctx: Pick<AppContext, 'db' | 'clock'>, completion: CompletionWatch) {
  return async (user: { id: string; role: Role }, videoId: string) => {
    const standings = user.role === 'student' ? await standingsOf(ctx.db, user.id, videoId) : [];
    return {
      limit: holdOf(standings),
      saved: async (ranges: readonly (readonly [number, number])[], newlyCompleted: boolean) => {
        const rewatching = standings.filter(
          (s) => !s.passed && s.rewatchFrom !== null && s.rewatchTo !== null,
        );
        if (rewatching.length && ranges.length)
          await recordRewatch(
            ctx.db,
            user.id,
            rewatching.map((s) => s.id),
            ranges,
            ctx.clock.now(),
          );
        if (newlyCompleted) await completion.lectureChanged(user.id, videoId);
      },
    };
  };
}
