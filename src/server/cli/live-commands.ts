/** The command line's live-class commands (docs/LIVE.md). */
import { LiveClassCreateBody } from '../../contract/live';
import { plural } from '../../contract/plural';
import { findUserByLogin } from '../accounts/users';
import { HttpError, parseInput } from '../errors';
import { createLiveClass } from '../live/classes';
import { ingestOf } from '../live/presenter';
import { openStreamKey } from '../live/stream-keys';
import type { Command } from './command';

export const LIVE_COMMANDS: readonly Command[] = [
  {
    name: 'live:create',
    help: 'Schedule a live class and print its ingest (SRT address, RTMP server, stream key): --course ID --title T --starts ISO --minutes N [--description D] [--username ADMIN]',
    needs: 'runtime',
    async run({ ctx, values }) {
      const input = parseInput(LiveClassCreateBody, {
        courseId: values.course,
        title: values.title,
        description: values.description ?? '',
        startsAt: values.starts,
        minutes: values.minutes,
      });
      // Scheduled as the admin (the first one unless --username names another), for the audit log.
      const name = values.username ?? ctx.config.adminUsername;
      const actor = await findUserByLogin(ctx.db, name);
      if (!actor || actor.role !== 'admin')
        throw new HttpError(404, `No admin is named ${name}: pass --username.`);
      const row = await createLiveClass(ctx, actor.id, input);
      const ingest = ingestOf(ctx.config.live, row, openStreamKey(ctx.signingKey, row.id, row.streamKey));
      // One a line, for scripts: the SRT address (its passphrase is the key), the RTMP server, the key.
      console.log(ingest.srtUrl);
      console.log(ingest.rtmpUrl);
      console.log(ingest.streamKey);
      console.error(
        `Scheduled "${row.title}" (class ${row.id}, lecture ${row.videoId}) at ${row.startsAt.toISOString()} for ${plural(row.minutes, 'minute')}.`,
      );
      return 0;
    },
  },
];
