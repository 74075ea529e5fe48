import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
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
import { ConfigError, loadConfig } from './config';
import type { AppContext } from './context';
import { openDatabase } from './db/client';
import { DatabaseInUseError } from './db/embedded-lock';
import { SchemaTooNewError } from './db/migration-state';
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
import { createLogger, openRuntime } from './runtime';
import { describeIndexing, indexFromCli } from './search/cli-command';
import { unlockAccount } from './accounts/account-budget';
import { createS3Client } from './media/store/s3-client';
import { setBucketCors } from './media/store/bucket-cors';
import { findUserByLogin } from './accounts/users';
import { recordSecurityEvent } from './audit/security-events';
import { resetAdminFactor } from './mfa/reset';
import { BackupError, runBackup } from './backup';
import { backupCommand, printBackupSummary, progressPrinter } from './backup/cli-commands';
import { existingSigningKey } from './signing-key';
import { rewrapStoredSecrets, wrapStoredSecrets } from './videos/video-secrets';

const COMMANDS = [
  ['create-admin', 'Add an admin: --username U --email E [--name N] [--password P]'],
  [
    'create-instructor',
    'Add an instructor teaching some courses: --username U --email E [--name N] [--password P] [--courses ID,ID]',
  ],
  [
    'assign-instructor',
    "Set the courses an instructor teaches (replaces them; --courses '' for none): --username U --courses ID,ID",
  ],
  ['remove-instructor', "Delete an instructor's account (their sessions end): --username U"],
  ['create-student', 'Add a student: --rollno R --name N --email E [--username U] [--password P]'],
  ['import-students', 'Add students from FILE.csv (header rollno,name,email[,username][,password])'],
  ['unlock', "Let USER sign in and use one-time codes again after the day's failure budget was spent: USER"],
  [
    'mfa:reset',
    "Remove an admin's second factor and recovery codes, end their sessions (a lost phone): --username U",
  ],
  ['media:migrate', 'Move every video to a store: --to s3|local (copy, verify, switch, remove the old copy)'],
  ['media:rekey', 'Re-encrypt videos packaged with one key with rotating keys (resumable; plays throughout)'],
  [
    'media:rewrap-keys',
    'After SIGNING_KEY changed: wrap the video keys stored under the old key under this one: --old-signing-key KEY',
  ],
  [
    'media:mark',
    'Queue forensic marking of videos packaged unmarked (FORENSIC_MARKS=on; resumable; plays throughout): [--video ID]',
  ],
  [
    'search:index',
    'Index videos for search: caption cues now, screen text and speech queued for the worker (resumable): [--video ID]',
  ],
  [
    'media:cors',
    'Let browsers on the site fetch segments from the bucket (SEGMENT_DELIVERY=s3): --origin https://site[,https://other]',
  ],
  ['nginx:config', 'Print the nginx site for SEGMENT_DELIVERY=nginx: [--listen 80] [--lectern HOST:PORT]'],
  [
    'doctor',
    'Check settings, database, store, mail, ffmpeg, disk, clock, key: [--nginx-site FILE] (exit 1 on a fail)',
  ],
  [
    'migrate:post-deploy',
    'Apply contract migrations (migrations/post-deploy) and wrap video keys stored plain, once every node runs this version',
  ],
  [
    'backup',
    'Back up the database, media and (with BACKUP_PASSPHRASE) the signing key: [--to DIR|s3://bucket/prefix]',
  ],
  ['backup:list', 'List the complete backups, newest first: [--from DEST]'],
  [
    'backup:verify',
    'Check backup ID: load its dump into a throwaway database, re-hash every object: ID [--from DEST]',
  ],
  [
    'restore',
    'Restore backup ID into an empty install: ID [--from DEST] [--database-url URL] [--media-store local|s3] [--replace] [--signing-key KEY]',
  ],
  ['trace:file', 'Name the playback session a leaked copy came from (forensic marks): FILE [--video ID]'],
  ['help', 'Show this list'],
] as const;

const NAME_WIDTH = Math.max(...COMMANDS.map(([name]) => name.length));

const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
${COMMANDS.map(([name, line]) => `  ${name.padEnd(NAME_WIDTH)}  ${line}`).join('\n')}

A student created without a password gets a random one by e-mail, with their username.
The settings are the server's environment variables (DATA_DIR, DATABASE_URL, SMTP_URL...):
see .env.example.`;

/** `--courses ID,ID` as a list ('' for none). */
const courseList = (text: string) =>
  text
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

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

async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || ['help', '--help', '-h'].includes(command) || rest.includes('--help')) {
    console.log(USAGE);
    return command ? 0 : 2;
  }
  if (!COMMANDS.some(([name]) => name === command)) {
    console.error(`Unknown command "${command}".\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
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
      'signing-key': { type: 'string' },
      'old-signing-key': { type: 'string' },
      video: { type: 'string' },
      origin: { type: 'string' },
      courses: { type: 'string' },
    },
  });

  const config = loadConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' });
  // These two must work when the rest cannot start (a bucket away, a schema to change): no runtime.
  if (command === 'doctor') {
    const lines = await runDoctor(config, process.env, {
      nginxSite: values['nginx-site'],
      listen: values.listen,
      lectern: values.lectern,
    });
    console.log(formatDoctor(lines));
    return lines.some((line) => line.verdict === 'fail') ? 1 : 0;
  }
  if (command === 'migrate:post-deploy') {
    const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, migrate: false });
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
  }
  // These open what they need themselves: the backup's target, and (restore) the database it fills.
  if (command === 'backup:list' || command === 'backup:verify' || command === 'restore')
    return backupCommand(command, config, values, positionals, createLogger(config));
  const runtime = await openRuntime(config, { logger: createLogger({ ...config, logLevel: 'warn' }) });
  const { ctx } = runtime;
  try {
    switch (command) {
      case 'create-admin': {
        const admin = await createAdmin(ctx.db, parseInput(NewAdmin, values));
        await recordSecurityEvent(ctx, ctx.clock.now(), {
          action: 'admin.created',
          userId: admin.id,
          details: { by: 'cli' },
        });
        console.log(`Created admin ${admin.username} <${admin.email}>.`);
        if (admin.generatedPassword) console.log(`Password (shown once): ${admin.generatedPassword}`);
        return 0;
      }
      case 'create-instructor': {
        const input = parseInput(NewInstructor, { ...values, courseIds: courseList(values.courses ?? '') });
        const { created } = await createInstructor(ctx, input, 'cli');
        console.log(
          `Created instructor ${created.username} <${created.email}> teaching ${plural(input.courseIds.length, 'course')}.`,
        );
        if (created.generatedPassword) console.log(`Password (shown once): ${created.generatedPassword}`);
        return 0;
      }
      case 'assign-instructor': {
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
      }
      case 'remove-instructor': {
        const name = values.username ?? positionals[0];
        if (!name) throw new HttpError(400, 'Name the instructor: remove-instructor --username U');
        const user = await instructorByLogin(ctx.db, name);
        await removeInstructor(ctx, user.id, 'cli');
        console.log(`Removed instructor ${user.username}: their account and sessions are gone.`);
        return 0;
      }
      case 'create-student': {
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
      }
      case 'unlock': {
        const name = positionals[0];
        if (!name) throw new HttpError(400, 'Name the account: unlock USER');
        const user = await findUserByLogin(ctx.db, name);
        if (!user) throw new HttpError(404, `No account is named ${name}.`);
        await unlockAccount(ctx.db, user.id);
        await recordSecurityEvent(ctx, ctx.clock.now(), { action: 'account.unlocked', userId: user.id });
        console.log(`Unlocked ${user.username}: sign-in and one-time codes count from zero again.`);
        return 0;
      }
      case 'mfa:reset': {
        const name = values.username ?? positionals[0];
        if (!name) throw new HttpError(400, 'Name the admin: mfa:reset --username U');
        const user = await findUserByLogin(ctx.db, name);
        // Instructors hold the same second factor.
        if (!user || user.role === 'student') throw new HttpError(404, `No admin is named ${name}.`);
        const had = await resetAdminFactor(ctx, user.id, 'cli');
        console.log(
          had
            ? `Reset the second factor of ${user.username}: their sessions ended; the next sign-in sets up a new one.`
            : `${user.username} had no second factor; their sessions ended.`,
        );
        return 0;
      }
      case 'import-students': {
        const file = positionals[0];
        if (!file) throw new HttpError(400, 'Name the CSV file: import-students FILE.csv');
        const created = await commitStudentImport(ctx.db, await readFile(file, 'utf8'));
        console.log(`Imported ${created.length} student${created.length === 1 ? '' : 's'}.`);
        const failed = await mailInitialPasswords(ctx, created);
        if (failed.length) console.log(`Could not mail initial passwords to: ${failed.join(', ')}`);
        return failed.length ? 1 : 0;
      }
      case 'media:cors': {
        const origins = (values.origin ?? '')
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
      }
      case 'media:migrate': {
        const to = values.to;
        if (to !== 's3' && to !== 'local')
          throw new HttpError(400, 'Name the target store: media:migrate --to s3|local');
        console.log(`Moving media to the ${to} store…`);
        const report = await migrateMedia(ctx, to, (line) => console.log(line));
        console.log(
          `Moved ${report.moved} video${report.moved === 1 ? '' : 's'} (${report.objects} objects, ${(report.bytes / 1e6).toFixed(1)} MB copied and verified), ${report.thumbnails} thumbnails copied.`,
        );
        if (report.waiting.length)
          console.log(
            `${report.waiting.length} still being packaged: run the command again once they are ready.`,
          );
        return 0;
      }
      case 'media:rewrap-keys': {
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
      }
      case 'media:rekey': {
        const ids = await videosToRekey(ctx);
        console.log(`${ids.length} video${ids.length === 1 ? '' : 's'} to re-key.`);
        for (const id of ids) if (await rekeyVideo(ctx, id)) console.log(`re-keyed ${id}`);
        console.log('Done.');
        return 0;
      }
      case 'media:mark': {
        if (!config.forensicMarks) {
          console.error(
            'media:mark marks with FORENSIC_MARKS=on: set it for the workers and here (docs/FORENSIC.md).',
          );
          return 2;
        }
        if (values.video !== undefined && !isUuid(values.video)) {
          console.error(`--video must be a video id (a UUID), not "${values.video}".`);
          return 2;
        }
        const unmarked = await videosToMark(ctx, values.video);
        const queued = await queueMarking(ctx, unmarked);
        const plural = (n: number) => `${n} video${n === 1 ? '' : 's'}`;
        console.log(
          `${plural(unmarked.length)} not fully marked; queued ${plural(queued.length)}` +
            (unmarked.length > queued.length ? ` (${unmarked.length - queued.length} already queued)` : '') +
            '. The worker marks one at a time at the lowest CPU priority; they play throughout.',
        );
        return 0;
      }
      case 'search:index': {
        if (values.video !== undefined && !isUuid(values.video)) {
          console.error(`--video must be a video id (a UUID), not "${values.video}".`);
          return 2;
        }
        const report = await indexFromCli(ctx, values.video);
        if (!report) {
          console.error(`No packaged video ${values.video}.`);
          return 1;
        }
        console.log(describeIndexing(report));
        return 0;
      }
      case 'backup': {
        const summary = await runBackup(ctx, { target: values.to, onProgress: progressPrinter() });
        printBackupSummary(summary);
        return 0;
      }
      case 'nginx:config': {
        console.log(
          nginxSite({
            listen: values.listen ?? '80',
            lectern: values.lectern ?? `${config.host}:${config.port}`,
            videosDir: path.join(config.dataDir, 'media', 'videos'),
            secret: nginxLinkSecret(ctx.signingKey),
          }),
        );
        return 0;
      }
      case 'trace:file': {
        const file = positionals[0];
        if (!file) {
          console.error('trace:file needs the file: npm run cli -- trace:file leaked.mp4 [--video ID]');
          return 2;
        }
        if (values.video !== undefined && !isUuid(values.video)) {
          console.error(`--video must be a video id (a UUID), not "${values.video}".`);
          return 2;
        }
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
      }
      default:
        throw new Error(`No handler for the command "${command}".`);
    }
  } finally {
    await runtime.close();
  }
}

run(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    const usageError = (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    if (usageError) {
      console.error(`${(error as Error).message}\n\n${USAGE}`);
    } else if (
      error instanceof HttpError ||
      error instanceof ConfigError ||
      error instanceof DatabaseInUseError ||
      error instanceof SchemaTooNewError ||
      error instanceof BackupError
    ) {
      console.error(error.message);
    } else {
      console.error(error);
    }
    process.exit(2);
  });
