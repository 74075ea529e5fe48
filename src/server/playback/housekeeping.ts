import type { AppContext } from '../context';
import type { JobHandler } from '../jobs/types';
import { purgePlaybackReports } from '../metrics/playback-health';
import { purgePlaybackSessions } from './sessions';

declare module '../jobs/types' {
  interface JobPayloads {
    /** Deletes playback sessions older than PLAYBACK_SESSION_DAYS, and playback health reports older than a week. */
    'playback.purge-sessions': Record<string, never>;
  }
}

const DAY_MS = 86_400_000;

/** Job handler: playback sessions are kept for PLAYBACK_SESSION_DAYS, then deleted. */
export function purgePlaybackSessionsHandler(ctx: AppContext): JobHandler<'playback.purge-sessions'> {
  return async (_payload, { log }) => {
    const before = new Date(ctx.clock.now().getTime() - ctx.config.playbackSessionDays * DAY_MS);
    const purged = await purgePlaybackSessions(ctx.db, before);
    if (purged) log.info({ purged }, 'purged old playback sessions');
    const reports = await purgePlaybackReports(ctx.db, ctx.clock.now());
    if (reports) log.info({ reports }, 'purged old playback health reports');
  };
}
