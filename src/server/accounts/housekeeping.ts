import { lt } from 'drizzle-orm';
import type { AppContext } from '../context';
import { oneTimeCodes, sessions } from '../db/schema';
import type { JobHandler } from '../jobs/types';

/** Job handler: removes sessions and one-time codes past their expiry. */
export function purgeExpiredHandler(ctx: AppContext): JobHandler<'accounts.purge-expired'> {
  return async (_payload, { log }) => {
    const now = ctx.clock.now();
    const ended = await ctx.db
      .delete(sessions)
      .where(lt(sessions.expiresAt, now))
      .returning({ id: sessions.id });
    const codes = await ctx.db
      .delete(oneTimeCodes)
      .where(lt(oneTimeCodes.expiresAt, now))
      .returning({ id: oneTimeCodes.id });
    if (ended.length || codes.length)
      log.info({ sessions: ended.length, codes: codes.length }, 'purged expired');
  };
}
