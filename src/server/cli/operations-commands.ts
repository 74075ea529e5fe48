/** The command line's operations commands: the doctor, post-deploy migrations, backups and restore, tracing a leaked copy. */
import { stat } from 'node:fs/promises';
import { runBackup } from '../backup';
import { issuerKeyHistory, rotateIssuerKey } from '../certificates/issuer-key';
import { backupCommand, printBackupSummary, progressPrinter } from '../backup/cli-commands';
import { openDatabase } from '../db/client';
import { applyPostDeploy } from '../db/post-deploy';
import { describeTrace, traceFile } from '../forensic/trace-file';
import { createLogger } from '../runtime';
import { existingSigningKey } from '../signing-key';
import { wrapStoredSecrets } from '../videos/video-secrets';
import { formatDoctor, runDoctor } from '../wiring/doctor';
import { videoOptionValid, type Command } from './command';

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

export const OPERATIONS_COMMANDS: readonly Command[] = [
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
    name: 'certificates:rotate-key',
    help: "A new Ed25519 key for the school's certificates (DATA_DIR/issuer.key); certificates signed before keep verifying (did:key)",
    needs: 'runtime',
    async run({ ctx }) {
      const before = (await issuerKeyHistory(ctx))[0]?.did;
      const key = await rotateIssuerKey(ctx);
      console.log(`New certificates are signed by ${key.did}${before ? `; ${before} is retired` : ''}.`);
      console.log(
        'Back up now: the new key is in the database sealed under SIGNING_KEY, and in DATA_DIR/issuer.key.',
      );
      return 0;
    },
  },
];
