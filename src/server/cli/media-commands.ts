/** The command line's media commands: moving, re-keying and marking videos, search, segment delivery. */
import path from 'node:path';
import { plural } from '../../contract/plural';
import { HttpError } from '../errors';
import { nginxSite } from '../media/delivery/nginx-config';
import { nginxRtmp, rtmpConfigOptions } from '../live/rtmp';
import { nginxLinkSecret } from '../media/delivery/segment-urls';
import { migrateMedia } from '../media/migrate';
import { queueMarking, videosToMark } from '../media/packaging/mark-video';
import { rekeyVideo, videosToRekey } from '../media/packaging/rekey';
import { describeIndexing, indexFromCli } from '../search/cli-command';
import { setBucketCors } from '../storage/bucket-cors';
import { createS3Client } from '../storage/s3-client';
import { rewrapStoredSecrets } from '../videos/video-secrets';
import { videoOptionValid, type Command } from './command';

export const MEDIA_COMMANDS: readonly Command[] = [
  {
    name: 'media:migrate',
    help: 'Move every video to a store: --to s3|local (copy, verify, switch, remove the old copy)',
    needs: 'runtime',
    async run({ ctx, values }) {
      const to = values.to;
      if (to !== 's3' && to !== 'local')
        throw new HttpError(400, 'Name the target store: media:migrate --to s3|local');
      console.log(`Moving media to the ${to} store…`);
      const report = await migrateMedia(ctx, to, (line) => console.log(line));
      console.log(
        `Moved ${plural(report.moved, 'video')} (${report.objects} objects, ${(report.bytes / 1e6).toFixed(1)} MB copied and verified), ${report.thumbnails} thumbnails copied.`,
      );
      if (report.waiting.length)
        console.log(
          `${report.waiting.length} still being packaged: run the command again once they are ready.`,
        );
      return 0;
    },
  },
  {
    name: 'media:rekey',
    help: 'Re-encrypt videos packaged with one key with rotating keys (resumable; plays throughout)',
    needs: 'runtime',
    async run({ ctx }) {
      const ids = await videosToRekey(ctx);
      console.log(`${plural(ids.length, 'video')} to re-key.`);
      for (const id of ids) if (await rekeyVideo(ctx, id)) console.log(`re-keyed ${id}`);
      console.log('Done.');
      return 0;
    },
  },
  {
    name: 'media:rewrap-keys',
    help: 'After SIGNING_KEY changed: wrap the video keys stored under the old key under this one: --old-signing-key KEY',
    needs: 'runtime',
    async run({ ctx, values }) {
      const old = values['old-signing-key'];
      if (!old)
        throw new HttpError(
          400,
          'Give the key the video keys were stored under: media:rewrap-keys --old-signing-key KEY (its SIGNING_KEY, or its DATA_DIR/signing.key)',
        );
      const { rewrapped, unreadable } = await rewrapStoredSecrets(ctx, old);
      console.log(`Wrapped ${rewrapped} video key(s) and secret(s) under this signing key.`);
      if (unreadable) {
        console.log(
          `${unreadable} open with neither key: give the key they were stored under (npm run cli -- doctor counts them).`,
        );
        return 1;
      }
      return 0;
    },
  },
  {
    name: 'media:mark',
    help: 'Queue forensic marking of videos packaged unmarked (FORENSIC_MARKS=on; resumable; plays throughout): [--video ID]',
    needs: 'runtime',
    async run({ ctx, values }) {
      if (!ctx.config.forensicMarks) {
        console.error(
          'media:mark marks with FORENSIC_MARKS=on: set it for the workers and here (docs/FORENSIC.md).',
        );
        return 2;
      }
      if (!videoOptionValid(values.video)) return 2;
      const unmarked = await videosToMark(ctx, values.video);
      const queued = await queueMarking(ctx, unmarked);
      console.log(
        `${plural(unmarked.length, 'video')} not fully marked; queued ${plural(queued.length, 'video')}` +
          (unmarked.length > queued.length ? ` (${unmarked.length - queued.length} already queued)` : '') +
          '. The worker marks one at a time at the lowest CPU priority; they play throughout.',
      );
      return 0;
    },
  },
  {
    name: 'search:index',
    help: 'Index videos for search: caption cues now, screen text and speech queued for the worker (resumable): [--video ID]',
    needs: 'runtime',
    async run({ ctx, values }) {
      if (!videoOptionValid(values.video)) return 2;
      const report = await indexFromCli(ctx, values.video);
      if (!report) {
        console.error(`No packaged video ${values.video}.`);
        return 1;
      }
      console.log(describeIndexing(report));
      return 0;
    },
  },
  {
    name: 'media:cors',
    help: 'Let browsers on the site fetch segments from the bucket (SEGMENT_DELIVERY=s3): [--origin https://site[,https://other]] (default PUBLIC_URL)',
    // The settings alone: it touches only the bucket, so it runs while the server holds the database.
    needs: 'config',
    async run({ config, values }) {
      const origins = (values.origin ?? config.publicUrl)
        .split(',')
        .filter(Boolean)
        .map((o) => URL.canParse(o) && new URL(o).origin);
      if (!origins.length || !origins.every((o) => o && o !== 'null'))
        throw new HttpError(400, 'Name the site: media:cors --origin https://lectern.school.example');
      if (!config.s3) throw new HttpError(400, 'S3_BUCKET is not set: there is no bucket to configure.');
      const client = createS3Client(config.s3);
      try {
        await setBucketCors(client, config.s3.bucket, origins as string[]);
      } finally {
        client.destroy();
      }
      console.log(`Bucket ${config.s3.bucket}: GET and HEAD allowed from ${origins.join(', ')}.`);
      return 0;
    },
  },
  {
    name: 'nginx:config',
    help: 'Print the nginx site for SEGMENT_DELIVERY=nginx: [--listen 80] [--lectern HOST:PORT]; with --rtmp, the rtmp block for RTMP encoders [--listen 1935] [--rtmps-cert FILE --rtmps-key FILE]',
    needs: 'runtime',
    async run({ ctx, values }) {
      const { config } = ctx;
      if (values.rtmp) {
        console.log(nginxRtmp(rtmpConfigOptions(config, values)));
        return 0;
      }
      console.log(
        nginxSite({
          listen: values.listen ?? '80',
          lectern: values.lectern ?? `${config.host}:${config.port}`,
          videosDir: path.join(config.dataDir, 'media', 'videos'),
          secret: nginxLinkSecret(ctx.signingKey),
        }),
      );
      return 0;
    },
  },
];
