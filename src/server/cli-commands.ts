/**
 * The admin command line's commands (`npm run cli -- <command>`, run by cli.ts): each one in one
 * place, with its help line, what it needs opened (nothing, the settings alone, or the runtime)
 * and what it does. The usage text lists them in this order.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { parseArgs } from 'node:util';
import { STAFF_SETUP_LINK_HOURS } from '../contract/constants';
import { AssignCoursesBody, NewInstructor } from '../contract/instructors';
import { NewAdmin, NewStudent } from '../contract/students';
import {
  assignInstructor,
  createInstructor,
  instructorByLogin,
  removeInstructor,
} from './accounts/instructors';
import { initialPasswordMail } from './accounts/mails';
import { commitStudentImport } from './accounts/student-import';
import { createAdmin, createStudent, type CreatedUser } from './accounts/users';
import type { Config } from './config';
import type { AppContext } from './context';
import { openDatabase } from './db/client';
import { applyPostDeploy } from './db/post-deploy';
import { formatDoctor, runDoctor } from './health/doctor';
import { HttpError, parseInput } from './errors';
import { isUuid } from './db/ids';
import { describeTrace, traceFile } from './forensic/trace-file';
import { nginxSite } from './media/delivery/nginx-config';
import { nginxLinkSecret } from './media/delivery/segment-urls';
import { migrateMedia } from './media/migrate';
import { queueMarking, videosToMark } from './media/packaging/mark-video';
import { rekeyVideo, videosToRekey } from './media/packaging/rekey';
import { createLogger } from './runtime';
import { describeIndexing, indexFromCli } from './search/cli-command';
import { unlockAccount } from './accounts/account-budget';
import { createS3Client } from './media/store/s3-client';
import { setBucketCors } from './media/store/bucket-cors';
import { findUserByLogin } from './accounts/users';
import { recordSecurityEvent } from './audit/security-events';
import { resetAdminFactor } from './mfa/reset';
import { runBackup } from './backup';
import { backupCommand, printBackupSummary, progressPrinter } from './backup/cli-commands';
import { existingSigningKey } from './signing-key';
import { rewrapStoredSecrets, wrapStoredSecrets } from './videos/video-secrets';
import { plural } from '../contract/plural';
import { LiveClassCreateBody } from '../contract/live';
import { createLiveClass } from './live/classes';
import { ingestOf } from './live/presenter';
import { openStreamKey } from './live/stream-keys';

/** Every option a command may take; each command reads its own. */
export const CLI_OPTIONS = {
  username: { type: 'string' },
  email: { type: 'string' },
  name: { type: 'string' },
  password: { type: 'string' },
  rollno: { type: 'string' },
  to: { type: 'string' },
  listen: { type: 'string' },
  lectern: { type: 'string' },
  'nginx-site': { type: 'string' },
  from: { type: 'string' },
  'database-url': { type: 'string' },
  'media-store': { type: 'string' },
  replace: { type: 'boolean' },
  'allow-unsealed': { type: 'boolean' },
  'signing-key': { type: 'string' },
  'old-signing-key': { type: 'string' },
  video: { type: 'string' },
  origin: { type: 'string' },
  courses: { type: 'string' },
  course: { type: 'string' },
  title: { type: 'string' },
  description: { type: 'string' },
  starts: { type: 'string' },
  minutes: { type: 'string' },
} as const;

type CliValues = ReturnType<
  typeof parseArgs<{ args: string[]; allowPositionals: true; options: typeof CLI_OPTIONS }>
>['values'];

/** What a command is given: the parsed options and the words after the command. */
interface CliArgs {
  values: CliValues;
  positionals: string[];
}

/**
 * A command: `nothing` runs before the options are parsed and the settings loaded; `config` gets
 * the settings alone (it must work when the rest cannot start, or opens what it needs itself);
 * `runtime` gets the opened app context, closed once it returns.
 */
type Command = { name: string; help: string } & (
  | { needs: 'nothing'; run: () => Promise<number> }
  | { needs: 'config'; run: (input: CliArgs & { config: Readonly<Config> }) => Promise<number> }
  | { needs: 'runtime'; run: (input: CliArgs & { ctx: AppContext }) => Promise<number> }
);

/** `--courses ID,ID` as a list ('' for none). */
const courseList = (text: string) =>
  text
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);

/** Mails generated initial passwords; returns the addresses that could not be reached. */
async function mailInitialPasswords(ctx: AppContext, created: CreatedUser[]): Promise<string[]> {
  const failed: string[] = [];
  for (const student of created) {
    if (!student.generatedPassword) continue;
    try {
      await ctx.mailer.send(initialPasswordMail(ctx.config.productName, student, student.generatedPassword));
    } catch {
      failed.push(student.email);
    }
  }
  return failed;
}

/** A word the command cannot do without (a name, a file); a 400 with its usage when missing. */
function required(word: string | undefined, usage: string): string {
  if (!word) throw new HttpError(400, usage);
  return word;
}

/** Whether `--video` is absent or a video id; says why not on stderr. */
function videoOptionValid(video: string | undefined): boolean {
  if (video === undefined || isUuid(video)) return true;
  console.error(`--video must be a video id (a UUID), not "${video}".`);
  return false;
}

/**
 * backup:list, backup:verify and restore (backup/cli-commands.ts) open what they need themselves:
 * the backup's target, and (restore) the database it fills.
 */
const backupTool = (name: 'backup:list' | 'backup:verify' | 'restore', help: string): Command => ({
  name,
  help,
  needs: 'config',
  run: ({ config, values, positionals }) =>
    backupCommand(name, config, values, positionals, createLogger(config)),
});

export const COMMANDS: readonly Command[] = [
  {
    name: 'create-admin',
    help: 'Add an admin: --username U --email E [--name N] [--password P]',
    needs: 'runtime',
    async run({ ctx, values }) {
      const admin = await createAdmin(ctx.db, parseInput(NewAdmin, values));
      await recordSecurityEvent(ctx, ctx.clock.now(), {
        action: 'admin.created',
        userId: admin.id,
        details: { by: 'cli' },
      });
      console.log(`Created admin ${admin.username} <${admin.email}>.`);
      if (admin.generatedPassword) console.log(`Password (shown once): ${admin.generatedPassword}`);
      return 0;
    },
  },
  {
    name: 'create-instructor',
    help: 'Add an instructor teaching some courses, mailed a set-up link: --username U --email E [--name N] [--courses ID,ID]',
    needs: 'runtime',
    async run({ ctx, values }) {
      if (values.password)
        throw new HttpError(
          400,
          'Instructors choose their own password through the mailed set-up link: leave out --password.',
        );
      const input = parseInput(NewInstructor, { ...values, courseIds: courseList(values.courses ?? '') });
      const { created, mailed } = await createInstructor(ctx, input, 'cli');
      console.log(
        `Created instructor ${created.username} <${created.email}> teaching ${plural(input.courseIds.length, 'course')}.`,
      );
      if (mailed) {
        console.log(`A set-up link was mailed to ${created.email} (valid ${STAFF_SETUP_LINK_HOURS} hours).`);
        return 0;
      }
      console.error(
        `The set-up link could not be mailed to ${created.email}: check the mail settings, then run mfa:reset --username ${created.username}.`,
      );
      return 1;
    },
  },
  {
    name: 'assign-instructor',
    help: "Set the courses an instructor teaches (replaces them; --courses '' for none): --username U --courses ID,ID",
    needs: 'runtime',
    async run({ ctx, values, positionals }) {
      const name = values.username ?? positionals[0];
      if (!name || values.courses === undefined)
        throw new HttpError(
          400,
          'Name the instructor and the courses: assign-instructor --username U --courses ID,ID',
        );
      const { courseIds } = parseInput(AssignCoursesBody, { courseIds: courseList(values.courses) });
      const user = await instructorByLogin(ctx.db, name);
      await assignInstructor(ctx, user.id, courseIds, 'cli');
      console.log(`${user.username} now teaches ${plural(courseIds.length, 'course')}.`);
      return 0;
    },
  },
  {
    name: 'remove-instructor',
    help: "Delete an instructor's account (their sessions end): --username U",
    needs: 'runtime',
    async run({ ctx, values, positionals }) {
      const name = required(
        values.username ?? positionals[0],
        'Name the instructor: remove-instructor --username U',
      );
      const user = await instructorByLogin(ctx.db, name);
      await removeInstructor(ctx, user.id, 'cli');
      console.log(`Removed instructor ${user.username}: their account and sessions are gone.`);
      return 0;
    },
  },
  {
    name: 'create-student',
    help: 'Add a student: --rollno R --name N --email E [--username U] [--password P]',
    needs: 'runtime',
    async run({ ctx, values }) {
      const student = await createStudent(ctx.db, parseInput(NewStudent, values));
      console.log(`Created student ${student.rollno} (username ${student.username}).`);
      const failed = await mailInitialPasswords(ctx, [student]);
      if (student.generatedPassword) {
        console.log(
          failed.length
            ? `Could not mail the initial password to ${student.email}.`
            : `Initial password mailed to ${student.email}.`,
        );
      }
      return failed.length ? 1 : 0;
    },
  },
  {
    name: 'import-students',
    help: 'Add students from FILE.csv (header rollno,name,email[,username][,password])',
    needs: 'runtime',
    async run({ ctx, positionals }) {
      const csv = await readFile(
        required(positionals[0], 'Name the CSV file: import-students FILE.csv'),
        'utf8',
      );
      const created = await commitStudentImport(ctx.db, csv);
      console.log(`Imported ${plural(created.length, 'student')}.`);
      const failed = await mailInitialPasswords(ctx, created);
      if (failed.length) console.log(`Could not mail initial passwords to: ${failed.join(', ')}`);
      return failed.length ? 1 : 0;
    },
  },
  {
    name: 'unlock',
    help: "End USER's sign-in waits and let them use one-time codes again after the day's failure budget was spent: USER",
    needs: 'runtime',
    async run({ ctx, positionals }) {
      const name = required(positionals[0], 'Name the account: unlock USER');
      const user = await findUserByLogin(ctx.db, name);
      if (!user) throw new HttpError(404, `No account is named ${name}.`);
      await unlockAccount(ctx.db, user.id);
      await recordSecurityEvent(ctx, ctx.clock.now(), { action: 'account.unlocked', userId: user.id });
      console.log(`Unlocked ${user.username}: sign-in and one-time codes count from zero again.`);
      return 0;
    },
  },
  {
    name: 'mfa:reset',
    help: "Remove an admin's second factor and recovery codes, end their sessions, mail them a set-up link (a lost phone): --username U",
    needs: 'runtime',
    async run({ ctx, values, positionals }) {
      const name = required(values.username ?? positionals[0], 'Name the admin: mfa:reset --username U');
      const user = await findUserByLogin(ctx.db, name);
      // Instructors hold the same second factor.
      if (!user || user.role === 'student') throw new HttpError(404, `No admin is named ${name}.`);
      const { had, mailed } = await resetAdminFactor(ctx, user, 'cli');
      console.log(
        had
          ? `Reset the second factor of ${user.username}: their sessions ended.`
          : `${user.username} had no second factor; their sessions ended.`,
      );
      if (mailed) {
        console.log(
          `A set-up link was mailed to ${user.email} (valid ${STAFF_SETUP_LINK_HOURS} hours): it sets a new password and the new factor.`,
        );
        return 0;
      }
      console.error(
        `The set-up link could not be mailed to ${user.email}: check the mail settings, then run mfa:reset again.`,
      );
      return 1;
    },
  },
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
    help: 'Let browsers on the site fetch segments from the bucket (SEGMENT_DELIVERY=s3): --origin https://site[,https://other]',
    needs: 'runtime',
    async run({ ctx, values }) {
      const origins = (values.origin ?? '')
        .split(',')
        .filter(Boolean)
        .map((o) => URL.canParse(o) && new URL(o).origin);
      if (!origins.length || !origins.every((o) => o && o !== 'null'))
        throw new HttpError(400, 'Name the site: media:cors --origin https://lectern.school.example');
      const { config } = ctx;
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
    help: 'Print the nginx site for SEGMENT_DELIVERY=nginx: [--listen 80] [--lectern HOST:PORT]',
    needs: 'runtime',
    async run({ ctx, values }) {
      const { config } = ctx;
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
  // doctor and migrate:post-deploy must work when the rest cannot start (a bucket away, a schema
  // to change): no runtime.
  {
    name: 'doctor',
    help: 'Check settings, database, store, mail, ffmpeg, disk, clock, key: [--nginx-site FILE] (exit 1 on a fail)',
    needs: 'config',
    async run({ config, values }) {
      const lines = await runDoctor(config, process.env, {
        nginxSite: values['nginx-site'],
        listen: values.listen,
        lectern: values.lectern,
      });
      console.log(formatDoctor(lines));
      return lines.some((line) => line.verdict === 'fail') ? 1 : 0;
    },
  },
  {
    name: 'migrate:post-deploy',
    help: 'Apply contract migrations (migrations/post-deploy) and wrap video keys stored plain, once every node runs this version',
    needs: 'config',
    async run({ config }) {
      const database = await openDatabase({
        url: config.databaseUrl,
        dataDir: config.dataDir,
        migrate: false,
      });
      try {
        const applied = await applyPostDeploy(database, (name) => console.log(`applied ${name}`));
        console.log(
          applied.length ? `Applied ${applied.length} post-deploy migration(s).` : 'Nothing to apply.',
        );
        // Keys stored before wrapping (docs/SECURITY.md): wrapped now that no node reads them plain.
        const signingKey = existingSigningKey(config);
        if (signingKey) {
          const wrapped = await wrapStoredSecrets({ db: database.db, signingKey });
          if (wrapped) console.log(`Wrapped ${wrapped} video key(s) and secret(s) stored plain.`);
        }
        return 0;
      } finally {
        await database.close();
      }
    },
  },
  {
    name: 'backup',
    help: 'Back up the database, media and (with BACKUP_PASSPHRASE) the signing key: [--to DIR|s3://bucket/prefix]',
    needs: 'runtime',
    async run({ ctx, values }) {
      const summary = await runBackup(ctx, { target: values.to, onProgress: progressPrinter() });
      printBackupSummary(summary);
      return 0;
    },
  },
  backupTool('backup:list', 'List the complete backups, newest first: [--from DEST]'),
  backupTool(
    'backup:verify',
    'Check backup ID: load its dump into a throwaway database, re-hash every object: ID [--from DEST] [--allow-unsealed]',
  ),
  backupTool(
    'restore',
    'Restore backup ID into an empty install: ID [--from DEST] [--database-url URL] [--media-store local|s3] [--replace] [--signing-key KEY] [--allow-unsealed]',
  ),
  {
    name: 'trace:file',
    help: 'Name the playback session a leaked copy came from (forensic marks): FILE [--video ID]',
    needs: 'runtime',
    async run({ ctx, values, positionals }) {
      const file = positionals[0];
      if (!file) {
        console.error('trace:file needs the file: npm run cli -- trace:file leaked.mp4 [--video ID]');
        return 2;
      }
      if (!videoOptionValid(values.video)) return 2;
      if (!(await stat(file).catch(() => undefined))?.isFile()) {
        console.error(`No file at ${file}.`);
        return 2;
      }
      let said = '';
      const result = await traceFile(ctx, file, {
        videoId: values.video,
        // Each step once (progress repeats it as the decoding advances).
        onProgress: (text) => void (text !== said && console.error((said = text))),
      });
      console.log(describeTrace(result));
      return result.kind === 'matched' && result.accused.length ? 0 : 1;
    },
  },
  {
    name: 'help',
    help: 'Show this list',
    needs: 'nothing',
    async run() {
      console.log(USAGE);
      return 0;
    },
  },
];

const NAME_WIDTH = Math.max(...COMMANDS.map(({ name }) => name.length));

export const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
${COMMANDS.map(({ name, help }) => `  ${name.padEnd(NAME_WIDTH)}  ${help}`).join('\n')}

A student created without a password gets a random one by e-mail, with their username.
The settings are the server's environment variables (DATA_DIR, DATABASE_URL, SMTP_URL...):
see .env.example.`;
