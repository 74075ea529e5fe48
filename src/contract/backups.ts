import { z } from 'zod';
import { plural } from './plural';

/** Texts of the backups screen and its routes (docs: README "Backups"). */
export const backupMessages = {
  queued: 'Backup queued. It starts in a moment.',
  joined: 'A backup is already under way: showing its progress.',
  retryNow: 'A backup was waiting to retry: it runs now.',
  runNotFound: 'No backup run with this id.',
  tooMany: 'Too many backup requests. Please try again later.',
  loadFailed: 'Could not load the backups.',
  startFailed: 'Could not start a backup.',
  keysLeftOut:
    'BACKUP_PASSPHRASE is not set: backups hold no video key, forensic secret or signing key, so videos restored from them need `npm run cli -- media:rekey` before they play. Set BACKUP_PASSPHRASE to keep them, encrypted.',
} as const;

/** What a backup taken without BACKUP_PASSPHRASE means for a restore, with its count of videos (CLI). */
export const videosNeedRekey = (videos: number) =>
  `${plural(videos, 'video')} restored from this backup will need \`npm run cli -- media:rekey\` before ${videos === 1 ? 'it plays' : 'they play'}: without BACKUP_PASSPHRASE it holds no video key, forensic secret or signing key.`;

/** Restored or found video keys that do not open with this install's signing key (restore, doctor). */
export const videoKeysUnreadable = (videos: number) =>
  `The keys of ${plural(videos, 'video')} do not open with this signing key: the database was written under another SIGNING_KEY. Set SIGNING_KEY (or DATA_DIR/signing.key) back to that key, or give it once to \`npm run cli -- media:rewrap-keys --old-signing-key KEY\`, which wraps them under this one. Until then ${videos === 1 ? 'it answers' : 'they answer'} 503 and cannot play (\`media:rekey\` cannot help: it needs the keys).`;

export const BACKUP_TRIGGERS = ['schedule', 'manual', 'cli'] as const;
export const BACKUP_RUN_STATUSES = ['queued', 'running', 'complete', 'failed'] as const;

const iso = z.string();

/**
 * One backup run: how it was asked for, how far it got, and what it wrote. Backups at the target
 * that no run recorded (taken with `npm run cli -- backup`) are listed as complete `cli` runs whose
 * id is the backup's.
 */
export const BackupRun = z.strictObject({
  id: z.string(),
  trigger: z.enum(BACKUP_TRIGGERS),
  status: z.enum(BACKUP_RUN_STATUSES),
  /** The school day a scheduled run is for (YYYY-MM-DD). */
  scheduledFor: z.string().nullable(),
  requestedBy: z.string().nullable(),
  createdAt: iso,
  startedAt: iso.nullable(),
  finishedAt: iso.nullable(),
  durationMs: z.number().int().nullable(),
  backupId: z.string().nullable(),
  /** The backup's whole size: the dump plus every object it references. */
  bytes: z.number().int().nullable(),
  /** What this run wrote (objects already at the target from earlier backups are not copied again). */
  bytesWritten: z.number().int().nullable(),
  objectsCopied: z.number().int().nullable(),
  objectsTotal: z.number().int().nullable(),
  /** The last attempt's failure in one line (a queued run with one is waiting to retry). */
  error: z.string().nullable(),
  attempts: z.number().int(),
  maxAttempts: z.number().int(),
  nextAttemptAt: iso.nullable(),
  /** While running: the engine's phase, its steps done of total, and bytes written so far. */
  progress: z
    .strictObject({
      phase: z.string(),
      done: z.number(),
      total: z.number().nullable(),
      bytes: z.number(),
      at: iso,
    })
    .nullable(),
  pruned: z.number().int().nullable(),
  /**
   * Whether the backup this run wrote is still at the target: false once retention removed it; null
   * when the run wrote none or the target could not be listed.
   */
  kept: z.boolean().nullable(),
});
export type BackupRun = z.infer<typeof BackupRun>;

export const BackupSchedule = z.strictObject({
  /** `HH:MM` in `timeZone`, or null when BACKUP_SCHEDULE=off. */
  time: z.string().nullable(),
  timeZone: z.string(),
  /** The next scheduled start, or null when off. */
  next: iso.nullable(),
  keep: z.number().int(),
});

export const BackupOverview = z.strictObject({
  runs: z.array(BackupRun),
  /** The run queued or running now, if any (at most one across every node). */
  active: BackupRun.nullable(),
  /** The newest failed run not followed by a successful one: the dashboard shows it until then. */
  lastFailure: BackupRun.nullable(),
  lastSuccessAt: iso.nullable(),
  schedule: BackupSchedule,
  /** Why the target's backups could not be listed (it is away), or null. */
  targetProblem: z.string().nullable(),
  /**
   * BACKUP_PASSPHRASE unset: what backups leave out and what restored videos then need
   * (`backupMessages.keysLeftOut`); null when backups are encrypted and hold everything.
   */
  keysLeftOut: z.string().nullable(),
});
export type BackupOverview = z.infer<typeof BackupOverview>;

/** `?summary=true`: without the runs and the target's listing (the dashboard's notice needs neither). */
export const BackupOverviewQuery = z.object({
  summary: z
    .enum(['true', 'false'], { error: 'summary is true or false.' })
    .optional()
    .transform((v) => v === 'true'),
});

export const BackupRunParam = z.object({ runId: z.string() });

export const BackupStarted = z.strictObject({
  message: z.string(),
  run: BackupRun,
  /** True when a run already under way was returned instead of a new one. */
  joined: z.boolean(),
});

export const BackupRunResponse = z.strictObject({ run: BackupRun });

/** Phases the engine reports, as the screen names them. */
export const phaseLabel = (phase: string): string =>
  ({
    starting: 'Starting',
    database: 'Dumping the database',
    media: 'Copying media',
    manifest: 'Writing the manifest',
    prune: 'Removing old backups',
  })[phase] ?? phase.charAt(0).toUpperCase() + phase.slice(1);
