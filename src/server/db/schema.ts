import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** Which media store holds a video or an upload (the media domain's stores, by kind). */
export type StoreKind = 'local' | 's3';

/** A part of an S3 multipart upload, as the uploads row records it once the bucket acknowledged it. */
export interface UploadPart {
  number: number;
  etag: string;
  size: number;
}

/** A chunk smaller than S3's minimum part, kept as its own object until enough follow to make a part. */
export interface UploadPiece {
  start: number;
  size: number;
}

const id = () => uuid('id').primaryKey().defaultRandom();
const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => at('created_at').notNull().defaultNow();
const updatedAt = () => at('updated_at').notNull().defaultNow();
/** A required reference to a user, course or video: the row goes when the row it names goes. */
const ownedBy = (name: string, target: () => AnyPgColumn) =>
  uuid(name).notNull().references(target, { onDelete: 'cascade' });
/**
 * The key of a table that links two rows (an instructor and a course, a student and a video): the
 * pair is the primary key, whose index serves lookups by its first column only, so the second
 * column gets an index of its own (`reverseIndex`) for lookups from the other side.
 */
const linkKey = (first: AnyPgColumn, second: AnyPgColumn, reverseIndex: string) => [
  primaryKey({ columns: [first, second] }),
  index(reverseIndex).on(second),
];

/** An instructor is staff scoped to the courses an admin assigns (instructor_courses). */
export type Role = 'admin' | 'student' | 'instructor';

/** Students, instructors and admins. Usernames, e-mails and roll numbers are unique regardless of case. */
export const users = pgTable(
  'users',
  {
    id: id(),
    role: text('role').$type<Role>().notNull(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    rollno: text('rollno'),
    passwordHash: text('password_hash').notNull(),
    firstLogin: boolean('first_login').notNull().default(true),
    createdAt: createdAt(),
    lastSignInAt: at('last_sign_in_at'),
    /**
     * Failed sign-ins and wrong one-time codes of the account in the window that started at
     * `*_since` (accounts/account-budget.ts): counted before the password or code is checked, so a
     * burst cannot pass the budget; `npm run cli -- unlock USER` zeroes both.
     */
    signInFailures: integer('sign_in_failures').notNull().default(0),
    signInFailuresSince: at('sign_in_failures_since'),
    codeFailures: integer('code_failures').notNull().default(0),
    codeFailuresSince: at('code_failures_since'),
  },
  (t) => [
    uniqueIndex('users_username_key').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_key').on(sql`lower(${t.email})`),
    uniqueIndex('users_rollno_key').on(sql`lower(${t.rollno})`),
  ],
);

/**
 * `full`: signed in; `reset`: a student's first login, limited to the password reset; `mfa`: an
 * admin's right password, waiting for the second factor; `enrol`: an admin's right password, who
 * must set up a second factor first (ADMIN_MFA=required). `mfa` and `enrol` live minutes and open
 * nothing but their own step (mfa/).
 */
export type SessionScope = 'full' | 'reset' | 'mfa' | 'enrol';

/** Sign-in sessions; only the SHA-256 of the cookie token is stored. `reset` sessions may only reset the password. */
export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    tokenHash: text('token_hash').notNull().unique(),
    userId: ownedBy('user_id', () => users.id),
    scope: text('scope').$type<SessionScope>().notNull(),
    createdAt: createdAt(),
    expiresAt: at('expires_at').notNull(),
    /** Admin sessions end after ADMIN_IDLE_MINUTES without a request (touched at most once a minute). */
    lastSeenAt: at('last_seen_at'),
    /** When the session last proved the admin's second factor: sensitive routes want it recent. */
    factorAt: at('factor_at'),
    /** The client address and browser that started it (admin sessions: the admin's own sessions list). */
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [index('sessions_user_idx').on(t.userId, t.createdAt)],
);

/**
 * An admin's TOTP factor (mfa/). `secret` is the base32 secret sealed with AES-256-GCM under a key
 * derived from the signing key, never in clear. Unconfirmed until the admin typed a right code;
 * `last_step` is the last 30 s step a code was accepted for, so a code is never taken twice.
 */
export const adminFactors = pgTable('admin_factors', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  confirmedAt: at('confirmed_at'),
  lastStep: bigint('last_step', { mode: 'number' }),
  createdAt: createdAt(),
});

/** An admin's single-use recovery codes, stored as HMACs; `used_at` is set by the one UPDATE that takes one. */
export const adminRecoveryCodes = pgTable(
  'admin_recovery_codes',
  {
    id: id(),
    userId: ownedBy('user_id', () => users.id),
    codeHash: text('code_hash').notNull(),
    usedAt: at('used_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('admin_recovery_codes_hash_key').on(t.userId, t.codeHash)],
);

/**
 * An admin's passkeys (WebAuthn credentials, mfa/passkeys.ts): the credential id and COSE public key
 * as base64url, the signature counter the authenticator last reported, its transports (hints for the
 * browser) and the name the admin gave it. Public keys are not secrets.
 */
export const adminPasskeys = pgTable(
  'admin_passkeys',
  {
    id: id(),
    userId: ownedBy('user_id', () => users.id),
    credentialId: text('credential_id').notNull(),
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports').$type<string[]>().notNull(),
    name: text('name').notNull(),
    createdAt: createdAt(),
    lastUsedAt: at('last_used_at'),
  },
  (t) => [
    uniqueIndex('admin_passkeys_credential_key').on(t.credentialId),
    index('admin_passkeys_user_idx').on(t.userId),
  ],
);

/**
 * The one WebAuthn challenge a session is waiting on (registering or signing in with a passkey):
 * bound to the session (it goes when the session goes), minutes long, taken by the DELETE that
 * checks it, so it answers once.
 */
export const adminPasskeyChallenges = pgTable('admin_passkey_challenges', {
  sessionId: uuid('session_id')
    .primaryKey()
    .references(() => sessions.id, { onDelete: 'cascade' }),
  purpose: text('purpose').$type<'register' | 'authenticate'>().notNull(),
  challenge: text('challenge').notNull(),
  expiresAt: at('expires_at').notNull(),
});

/** Password-reset codes: one live code per user, stored as an HMAC, single use, a few wrong tries. */
export const oneTimeCodes = pgTable(
  'one_time_codes',
  {
    id: id(),
    userId: ownedBy('user_id', () => users.id),
    codeHash: text('code_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: at('expires_at').notNull(),
    wrongTries: integer('wrong_tries').notNull().default(0),
    usedAt: at('used_at'),
  },
  (t) => [index('one_time_codes_user_idx').on(t.userId)],
);

export const courses = pgTable(
  'courses',
  {
    id: id(),
    batch: integer('batch').notNull(),
    courseCode: text('course_code').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    /** File name under DATA_DIR/thumbnails, or null. */
    thumbnail: text('thumbnail'),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('courses_batch_code_key').on(t.batch, sql`lower(${t.courseCode})`)],
);

/** The courses an instructor teaches (assigned by an admin): the one scope of an instructor's rights. */
export const instructorCourses = pgTable(
  'instructor_courses',
  {
    userId: ownedBy('user_id', () => users.id),
    courseId: ownedBy('course_id', () => courses.id),
    createdAt: createdAt(),
  },
  (t) => linkKey(t.userId, t.courseId, 'instructor_courses_course_idx'),
);

/** Course access of one student: active while not revoked and not past its expiry. */
export const enrollments = pgTable(
  'enrollments',
  {
    id: id(),
    courseId: ownedBy('course_id', () => courses.id),
    studentId: ownedBy('student_id', () => users.id),
    accessExpiration: at('access_expiration').notNull(),
    accessRevoked: boolean('access_revoked').notNull().default(false),
    accessRevokedReason: text('access_revoked_reason'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('enrollments_course_student_key').on(t.courseId, t.studentId),
    index('enrollments_student_idx').on(t.studentId),
  ],
);

export type VideoStatus = 'processing' | 'ready' | 'failed';

/** A lecture. Created when its upload is finalized; the admin's metadata call names and assigns it. */
export const videos = pgTable(
  'videos',
  {
    id: id(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    /** Admin-provided thumbnail file under DATA_DIR/thumbnails, or null (then the extracted poster is used). */
    thumbnail: text('thumbnail'),
    courseId: uuid('course_id').references(() => courses.id, { onDelete: 'set null' }),
    /** Order within the course; lower plays first. */
    position: integer('position').notNull().default(0),
    status: text('status').$type<VideoStatus>().notNull().default('processing'),
    failureReason: text('failure_reason'),
    durationSeconds: real('duration_seconds').notNull().default(0),
    sourceName: text('source_name').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull().default(0),
    /**
     * AES-128 key of the HLS segments of a video packaged before key rotation, wrapped
     * (videos/video-secrets.ts; plain hex if written before wrapping); never served from the media folder.
     */
    hlsKey: text('hls_key'),
    /** Heights of the renditions whose files are complete, listed in the master playlist. */
    renditions: jsonb('renditions').$type<number[]>().notNull().default([]),
    /**
     * Forensic marks (docs/FORENSIC.md): the video's secret keying its mark pattern, variant names
     * and session sequences, wrapped (videos/video-secrets.ts); null while no rendition is marked.
     */
    forensicSecret: text('forensic_secret'),
    /** Which media store holds its files (`local` or `s3`); `media:migrate` switches it once a copy is verified. */
    store: text('store').$type<StoreKind>().notNull().default('local'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('videos_course_idx').on(t.courseId, t.position)],
);

/**
 * The AES-128 keys of a video's segments, one per period of KEY_ROTATION_SECONDS of media (shared by
 * every rendition: they cut on the same grid). Kept here, never beside the segments, so the key
 * route is one indexed read after its access check.
 */
export const videoKeys = pgTable(
  'video_keys',
  {
    videoId: ownedBy('video_id', () => videos.id),
    period: integer('period').notNull(),
    /** 16 bytes, wrapped under the signing key (videos/video-secrets.ts; plain hex if written before wrapping). */
    key: text('key').notNull(),
  },
  (t) => [primaryKey({ columns: [t.videoId, t.period] })],
);

/** Per-student video access granted by an admin. */
export const videoAccess = pgTable(
  'video_access',
  {
    videoId: ownedBy('video_id', () => videos.id),
    studentId: ownedBy('student_id', () => users.id),
    grantedAt: createdAt(),
    grantedBy: uuid('granted_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => linkKey(t.videoId, t.studentId, 'video_access_student_idx'),
);

/** Caption files of a video, one per language, stored as WebVTT (docs/CAPTIONS.md). */
export const videoCaptions = pgTable(
  'video_captions',
  {
    videoId: ownedBy('video_id', () => videos.id),
    /** BCP 47 tag as the admin typed it, e.g. `en`, `pt-BR`. */
    language: text('language').notNull(),
    label: text('label').notNull(),
    vtt: text('vtt').notNull(),
    cueCount: integer('cue_count').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.videoId, t.language] })],
);

/**
 * One playback of a video (a master playlist request): its short code is drawn on the player, so a
 * leaked screenshot names the session (docs/CAPTIONS.md "Trace a leak"). Deleted after
 * PLAYBACK_SESSION_DAYS.
 */
export const playbackSessions = pgTable(
  'playback_sessions',
  {
    /** 8 Crockford base32 characters. */
    code: text('code').primaryKey(),
    userId: ownedBy('user_id', () => users.id),
    videoId: uuid('video_id').references(() => videos.id, { onDelete: 'set null' }),
    courseId: uuid('course_id').references(() => courses.id, { onDelete: 'set null' }),
    startedAt: at('started_at').notNull().defaultNow(),
    ip: text('ip').notNull(),
    userAgent: text('user_agent').notNull(),
  },
  (t) => [
    index('playback_sessions_user_idx').on(t.userId, t.startedAt),
    index('playback_sessions_started_idx').on(t.startedAt),
  ],
);

/**
 * How playback went, as players report it with their progress saves (issue 19): a row per report
 * (a playback's first frame, a batch of stalls, an error, at least one every 5 min of playing), for
 * the admin's 24 h panel. Kept a week (playback.purge-sessions).
 */
export const playbackReports = pgTable(
  'playback_reports',
  {
    id: id(),
    at: at('at').notNull().defaultNow(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    videoId: uuid('video_id').references(() => videos.id, { onDelete: 'set null' }),
    /** chrome, edge, firefox, safari or other (from the User-Agent). */
    browser: text('browser').notNull(),
    /** Set on the report of a playback's first frame. */
    startupMs: integer('startup_ms'),
    stalls: integer('stalls').notNull().default(0),
    stallMs: integer('stall_ms').notNull().default(0),
    playedMs: integer('played_ms').notNull().default(0),
    /** A fatal error's short code. */
    error: text('error'),
  },
  (t) => [index('playback_reports_at_idx').on(t.at)],
);

/** bytea as a Node Buffer (both drivers hand back a Uint8Array). */
const bytes = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/**
 * Where a student is in a video and how much of it they actually watched. `watchedCells` is a
 * bitmap of the video's seconds (bit i of byte i>>3, low bit first: second [i, i+1) was played);
 * `watchedSeconds` is what the student is shown: the larger of its count and an old client's
 * rate-limited `claimedSeconds`. `revision` makes each save a compare-and-swap.
 */
export const videoProgress = pgTable(
  'video_progress',
  {
    studentId: ownedBy('student_id', () => users.id),
    videoId: ownedBy('video_id', () => videos.id),
    positionSeconds: real('position_seconds').notNull().default(0),
    watchedSeconds: real('watched_seconds').notNull().default(0),
    claimedSeconds: real('claimed_seconds').notNull().default(0),
    watchedCells: bytes('watched_cells'),
    playedSeconds: doublePrecision('played_seconds').notNull().default(0),
    revision: integer('revision').notNull().default(0),
    completedAt: at('completed_at'),
    /**
     * How far the wall clock's allowance for played ranges is spent (progress/save-progress.ts): a
     * save delayed on its way leaves the next one its share. Null: counted from `updated_at`.
     */
    rangesCreditAt: at('ranges_credit_at'),
    updatedAt: updatedAt(),
  },
  (t) => linkKey(t.studentId, t.videoId, 'video_progress_video_idx'),
);

/** Per video and 5-second bucket: students who watched any second of it, and milliseconds played (rewatching counts). */
export const videoWatchBuckets = pgTable(
  'video_watch_buckets',
  {
    videoId: ownedBy('video_id', () => videos.id),
    bucket: integer('bucket').notNull(),
    viewers: integer('viewers').notNull().default(0),
    playedMs: bigint('played_ms', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.videoId, t.bucket] })],
);

/** Seconds of a video a student played on a day of the school's time zone (OPEN_TZ). */
export const watchDays = pgTable(
  'watch_days',
  {
    studentId: ownedBy('student_id', () => users.id),
    day: date('day', { mode: 'string' }).notNull(),
    videoId: ownedBy('video_id', () => videos.id),
    seconds: doublePrecision('seconds').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.studentId, t.day, t.videoId] }),
    index('watch_days_video_idx').on(t.videoId),
  ],
);

/**
 * A student's totals in a course, kept by every progress save so the course grid can sort and
 * filter 10,000 students without reading their 2,000,000 progress rows. Rebuilt for a course when
 * a video leaves or joins it.
 */
export const courseWatchStats = pgTable(
  'course_watch_stats',
  {
    courseId: ownedBy('course_id', () => courses.id),
    studentId: ownedBy('student_id', () => users.id),
    videosStarted: integer('videos_started').notNull().default(0),
    videosCompleted: integer('videos_completed').notNull().default(0),
    watchedSeconds: doublePrecision('watched_seconds').notNull().default(0),
    playedSeconds: doublePrecision('played_seconds').notNull().default(0),
    lastActivityAt: at('last_activity_at'),
  },
  (t) => linkKey(t.courseId, t.studentId, 'course_watch_stats_student_idx'),
);

/** A chunked upload in progress. `offset` counts bytes known durable on disk. */
export const uploads = pgTable(
  'uploads',
  {
    id: id(),
    ownerId: ownedBy('owner_id', () => users.id),
    label: text('label').notNull(),
    storageName: text('storage_name').notNull().unique(),
    /** Bytes the store acknowledged (S3: parts plus pieces); never more than what a resume may trust. */
    offset: bigint('offset', { mode: 'number' }).notNull().default(0),
    store: text('store').$type<StoreKind>().notNull().default('local'),
    /** S3: the multipart upload of `sources/<storageName>`, its acknowledged parts and small pieces. */
    multipartId: text('multipart_id'),
    parts: jsonb('parts').$type<UploadPart[]>().notNull().default([]),
    pieces: jsonb('pieces').$type<UploadPiece[]>().notNull().default([]),
    /** The one writer's lease: a random token per request, renewed while its chunk streams. */
    leaseOwner: text('lease_owner'),
    leaseUntil: at('lease_until'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('uploads_owner_label_key').on(t.ownerId, t.label)],
);

export type JobStatus = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

/** Database-backed job queue: a crash leaves a running job to be picked up again once its lock goes stale. */
export const jobs = pgTable(
  'jobs',
  {
    id: id(),
    type: text('type').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    status: text('status').$type<JobStatus>().notNull().default('queued'),
    /** Higher runs first. */
    priority: integer('priority').notNull().default(0),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(3),
    /** Retries caused by a dependency being away (RetryLaterError): they use up no attempt. */
    deferrals: integer('deferrals').notNull().default(0),
    runAt: at('run_at').notNull().defaultNow(),
    lockedAt: at('locked_at'),
    lockedBy: text('locked_by'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('jobs_ready_idx').on(t.status, t.priority, t.runAt)],
);

/** Who changed whose access, when, and from what to what. */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: id(),
    at: createdAt(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    studentId: uuid('student_id').references(() => users.id, { onDelete: 'set null' }),
    courseId: uuid('course_id').references(() => courses.id, { onDelete: 'set null' }),
    videoId: uuid('video_id').references(() => videos.id, { onDelete: 'set null' }),
    oldExpiration: at('old_expiration'),
    newExpiration: at('new_expiration'),
    reason: text('reason'),
    details: jsonb('details').$type<Record<string, unknown>>(),
  },
  (t) => [index('audit_events_student_idx').on(t.studentId, t.at)],
);

/**
 * A counter per topic, bumped by statement triggers (migration 0002) in the same transaction as
 * any write the topic's read models depend on. Readers compare stamps to know whether a cached
 * read model is still exact, on any number of app nodes. Topic `rosters`: courses, enrollments,
 * videos' course and students' names, e-mails and roll numbers.
 */
export const changeStamps = pgTable('change_stamps', {
  topic: text('topic').primaryKey(),
  stamp: bigint('stamp', { mode: 'number' }).notNull().default(0),
});

export type BackupTrigger = 'schedule' | 'manual' | 'cli';
export type BackupRunStatus = 'queued' | 'running' | 'complete' | 'failed';

/**
 * One backup as the school asked for it (the daily schedule, an admin's "Back up now", the CLI) and
 * how it went: its job's progress, figures and failure. The backup itself (manifest, dump, objects)
 * lives on BACKUP_TARGET; `backupId` names it there. At most one run is queued or running at a time
 * across every node (`backup_runs_one_active`), and the schedule adds one run per school day
 * (`scheduled_for` unique).
 */
export const backupRuns = pgTable(
  'backup_runs',
  {
    id: id(),
    trigger: text('trigger').$type<BackupTrigger>().notNull(),
    status: text('status').$type<BackupRunStatus>().notNull().default('queued'),
    /** The school day (OPEN_TZ) a scheduled run is for; null for other triggers. */
    scheduledFor: date('scheduled_for', { mode: 'string' }),
    requestedBy: uuid('requested_by').references(() => users.id, { onDelete: 'set null' }),
    jobId: uuid('job_id'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(1),
    /** A failed attempt waits until then before the next one. */
    nextAttemptAt: at('next_attempt_at'),
    createdAt: createdAt(),
    startedAt: at('started_at'),
    finishedAt: at('finished_at'),
    /** The backup's id on the target, once written. */
    backupId: text('backup_id'),
    /** The backup's whole size (dump plus every object it references). */
    bytes: bigint('bytes', { mode: 'number' }),
    /** What this run wrote to the target (objects already there from earlier backups are not copied again). */
    bytesWritten: bigint('bytes_written', { mode: 'number' }),
    objectsCopied: integer('objects_copied'),
    objectsTotal: integer('objects_total'),
    durationMs: integer('duration_ms'),
    /** The last attempt's failure, in one line. */
    error: text('error'),
    phase: text('phase'),
    progressDone: bigint('progress_done', { mode: 'number' }),
    progressTotal: bigint('progress_total', { mode: 'number' }),
    progressBytes: bigint('progress_bytes', { mode: 'number' }),
    progressAt: at('progress_at'),
    /** Backups removed by the retention that followed this run (BACKUP_KEEP). */
    pruned: integer('pruned'),
    /** When the admins were mailed about this run's final failure (once). */
    adminsMailedAt: at('admins_mailed_at'),
  },
  (t) => [
    uniqueIndex('backup_runs_one_active')
      .on(sql`(true)`)
      .where(sql`status in ('queued', 'running')`),
    uniqueIndex('backup_runs_scheduled_for_key').on(t.scheduledFor),
    index('backup_runs_created_idx').on(t.createdAt),
  ],
);

export type TraceRunStatus = 'queued' | 'running' | 'done' | 'failed';

/**
 * A leaked copy an admin uploaded on "Trace a leak" (docs/FORENSIC.md, "Tracing from the screen")
 * and how its `forensic.trace` job went: progress while it runs, then the answer (the contract's
 * TraceResult: the video it matches and the sessions and students it names) or why it failed. The
 * file itself waits in the media store under `trace-uploads/<id>` only until the job ends.
 */
export const traceRuns = pgTable(
  'trace_runs',
  {
    id: id(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    /** The name the admin's file had (shown only to admins). */
    fileName: text('file_name').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    /** Which media store holds the upload while it waits. */
    store: text('store').$type<StoreKind>().notNull().default('local'),
    status: text('status').$type<TraceRunStatus>().notNull().default('queued'),
    /** 0..1, and what the job is doing (decoding the copy, comparing it with a video, scoring). */
    progress: real('progress').notNull().default(0),
    phase: text('phase'),
    /** The video the admin said the copy is from; null: compared with every marked video. */
    videoId: uuid('video_id').references(() => videos.id, { onDelete: 'set null' }),
    jobId: uuid('job_id'),
    startedAt: at('started_at'),
    finishedAt: at('finished_at'),
    result: jsonb('result').$type<Record<string, unknown>>(),
    /** Why the trace could not run, in one line. */
    error: text('error'),
  },
  (t) => [index('trace_runs_created_idx').on(t.createdAt)],
);

/** A student's private note at a moment of a video (issue 30): no one else reads it. */
export const notes = pgTable(
  'notes',
  {
    id: id(),
    studentId: ownedBy('student_id', () => users.id),
    videoId: ownedBy('video_id', () => videos.id),
    /** Seconds into the video. */
    t: doublePrecision('t').notNull(),
    text: text('text').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('notes_student_video_idx').on(t.studentId, t.videoId, t.t)],
);

export type QuestionStatus = 'open' | 'closed' | 'hidden';

/**
 * A doubt pinned to a moment of a video (issue 30): every viewer of the video sees it (never who
 * asked), staff answer, close or hide it. `askerSeenAt`: answers after it are unread for the asker.
 */
export const questions = pgTable(
  'questions',
  {
    id: id(),
    askerId: ownedBy('asker_id', () => users.id),
    videoId: ownedBy('video_id', () => videos.id),
    t: doublePrecision('t').notNull(),
    title: text('title').notNull(),
    text: text('text').notNull(),
    status: text('status').$type<QuestionStatus>().notNull().default('open'),
    /** One of its answers (no foreign key: answers reference questions). */
    acceptedAnswerId: uuid('accepted_answer_id'),
    askerSeenAt: at('asker_seen_at').notNull().defaultNow(),
    /**
     * When the server stored the small frame of the moment (media key `videos/<id>/frames/<id>.jpg`,
     * taken from the source or the top rendition, never a student's canvas); null until then.
     */
    frameAt: at('frame_at'),
    /** When the staff's hourly digest named it (null: not yet): a question is digested once. */
    digestedAt: at('digested_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('questions_video_idx').on(t.videoId, t.createdAt),
    index('questions_asker_idx').on(t.askerId),
    index('questions_status_idx').on(t.status, t.createdAt),
  ],
);

/** Staff answers to a question; the author stays when the account goes (null). */
export const questionAnswers = pgTable(
  'question_answers',
  {
    id: id(),
    questionId: ownedBy('question_id', () => questions.id),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    text: text('text').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('question_answers_question_idx').on(t.questionId, t.createdAt)],
);

/** "Me too": a classmate has the same doubt (once per student). */
export const questionMeToo = pgTable(
  'question_me_too',
  {
    questionId: ownedBy('question_id', () => questions.id),
    studentId: ownedBy('student_id', () => users.id),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.questionId, t.studentId] })],
);

/** Where an indexed piece of text came from (src/contract/search.ts). */
export type SearchSource = 'captions' | 'screen' | 'speech';
export type SearchIndexStatus = 'queued' | 'running' | 'done' | 'failed' | 'off';

/** PostgreSQL's parsed text for full-text search. */
const tsvector = customType<{ data: string; driverData: string }>({ dataType: () => 'tsvector' });

/**
 * The search index (issue 29): one row per caption cue, per stretch of unchanged text on screen
 * and per machine-heard cue, with its time. Searched by PostgreSQL's full-text search on `words`
 * (kept by PostgreSQL from `text`, so ranking reads it instead of parsing every row again; backups
 * leave generated columns out and restore makes them anew) and by pg_trgm for identifiers and
 * partial words.
 */
export const searchEntries = pgTable(
  'search_entries',
  {
    id: id(),
    videoId: ownedBy('video_id', () => videos.id),
    source: text('source').$type<SearchSource>().notNull(),
    /** The caption track's language for `captions`; '' otherwise. */
    language: text('language').notNull().default(''),
    startSeconds: real('start_seconds').notNull(),
    endSeconds: real('end_seconds').notNull(),
    /** As shown or heard: screen text keeps its lines and indentation. */
    text: text('text').notNull(),
    words: tsvector('words').generatedAlwaysAs(sql`to_tsvector('simple', text)`),
  },
  (t) => [
    index('search_entries_video_idx').on(t.videoId, t.source, t.startSeconds),
    index('search_entries_words_idx').using('gin', t.words),
    index('search_entries_trgm_idx').using('gin', sql`lower(${t.text}) gin_trgm_ops`),
  ],
);

/**
 * The search index turned around (issue 29): per word, video and source, the seconds where an entry
 * holding the word starts. A query reads a word's row per video (about a thousand for a word said in
 * every lecture) instead of its every entry (a hundred thousand), and finds the videos to show
 * before it reads any entry. Kept by PostgreSQL: triggers on `search_entries` rebuild the rows of
 * each video and source a statement changes (migration 0020), so no code path can forget it; a
 * restore fills it from the backup with triggers off, as every table.
 */
export const searchTerms = pgTable(
  'search_terms',
  {
    /** A lexeme of `search_entries.words`. */
    lexeme: text('lexeme').notNull(),
    videoId: ownedBy('video_id', () => videos.id),
    source: text('source').$type<SearchSource>().notNull(),
    /** Ascending, each once. */
    starts: real('starts').array().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.lexeme, t.videoId, t.source] }),
    // Prefixes (`lexeme like 'rou%'`) through the index whatever the database's collation.
    index('search_terms_prefix_idx').on(t.lexeme.op('text_pattern_ops')),
    index('search_terms_video_idx').on(t.videoId, t.source),
  ],
);

/** How far each source of a video's index got: the admin's per-source state, and where a job resumes. */
export const searchIndexState = pgTable(
  'search_index_state',
  {
    videoId: ownedBy('video_id', () => videos.id),
    source: text('source').$type<SearchSource>().notNull(),
    status: text('status').$type<SearchIndexStatus>().notNull().default('queued'),
    /** 0..1 */
    progress: real('progress').notNull().default(0),
    /** Seconds of the video done (screen text): a resumed job starts here. */
    doneSeconds: real('done_seconds').notNull().default(0),
    /** Why it failed or waits, in one line. */
    error: text('error'),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.videoId, t.source] })],
);

/** Answers of a checkpoint: choice numbers (single, multiple) or accepted outputs (output). */
export type CheckpointAnswers = (number | string)[];

/**
 * Questions at a moment of a lecture (issue 39) that the key route holds the lecture at until a
 * student passed the first required one (checkpoints/hold.ts). The answers never leave the server
 * for a student.
 */
export const checkpoints = pgTable(
  'checkpoints',
  {
    id: id(),
    videoId: ownedBy('video_id', () => videos.id),
    t: doublePrecision('t').notNull(),
    kind: text('kind').$type<'single' | 'multiple' | 'output'>().notNull(),
    prompt: text('prompt').notNull(),
    choices: jsonb('choices').$type<string[]>().notNull().default([]),
    answers: jsonb('answers').$type<CheckpointAnswers>().notNull(),
    required: boolean('required').notNull().default(true),
    /** Where a wrong answer sends the student back to (null: no rewatch). */
    rewindTo: doublePrecision('rewind_to'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('checkpoints_video_idx').on(t.videoId, t.t)],
);

/** Every answer a student gave to a checkpoint (the analytics' attempts and distribution). */
export const checkpointAttempts = pgTable(
  'checkpoint_attempts',
  {
    id: id(),
    checkpointId: ownedBy('checkpoint_id', () => checkpoints.id),
    studentId: ownedBy('student_id', () => users.id),
    answer: jsonb('answer').$type<number | number[] | string>().notNull(),
    correct: boolean('correct').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('checkpoint_attempts_checkpoint_idx').on(t.checkpointId, t.studentId),
    index('checkpoint_attempts_student_idx').on(t.studentId),
  ],
);

/**
 * A student's standing at a checkpoint: passed (when), and after a wrong answer with a rewatch
 * moment the part to watch again and what of it progress saves covered since.
 */
export const checkpointStates = pgTable(
  'checkpoint_states',
  {
    checkpointId: ownedBy('checkpoint_id', () => checkpoints.id),
    studentId: ownedBy('student_id', () => users.id),
    passedAt: at('passed_at'),
    rewatchFrom: doublePrecision('rewatch_from'),
    rewatchTo: doublePrecision('rewatch_to'),
    /** Merged [start, end] ranges of the rewatch part played since the wrong answer. */
    rewatched: jsonb('rewatched').$type<[number, number][]>().notNull().default([]),
    updatedAt: updatedAt(),
  },
  (t) => linkKey(t.checkpointId, t.studentId, 'checkpoint_states_student_idx'),
);

/** When a student first completed a course (checkpoints/completion.ts: the one place it is detected). */
export const courseCompletions = pgTable(
  'course_completions',
  {
    studentId: ownedBy('student_id', () => users.id),
    courseId: ownedBy('course_id', () => courses.id),
    completedAt: at('completed_at').notNull().defaultNow(),
  },
  (t) => linkKey(t.studentId, t.courseId, 'course_completions_course_idx'),
);

/** Where a live class is (issue 38, docs/LIVE.md): before its stream, streaming, or over (its lecture is the recording). */
export type LiveClassStatus = 'scheduled' | 'live' | 'ended';

/**
 * A live class of a course (docs/LIVE.md): the instructor streams into its ingest (SRT with the
 * class's passphrase, or RTMP through nginx with its stream key) and students watch its lecture,
 * `video_id`, which is live while the class runs and the recording after it.
 */
export const liveClasses = pgTable(
  'live_classes',
  {
    id: id(),
    courseId: ownedBy('course_id', () => courses.id),
    /** The lecture the class streams into and records as. */
    videoId: ownedBy('video_id', () => videos.id),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    startsAt: at('starts_at').notNull(),
    minutes: integer('minutes').notNull(),
    /**
     * The stream key (128 random bits; also the SRT passphrase), wrapped under the signing key for
     * this class (live/stream-keys.ts): never logged, never in a list's answer to a student.
     */
    streamKey: text('stream_key').notNull(),
    /** The class's own SRT listener port while its ingest is open (unique among classes not ended). */
    srtPort: integer('srt_port').notNull(),
    status: text('status').$type<LiveClassStatus>().notNull().default('scheduled'),
    /** When the first segment arrived, and when the recording got its end. */
    liveAt: at('live_at'),
    endedAt: at('ended_at'),
    /**
     * The `live.recording` job packaging the recording once the class ended (its state and failure
     * are the job's own row), and the step it reported last (live/recording-progress.ts): a step of
     * the packaging, and within it the part it is on of how many (the renditions).
     */
    recordingJobId: uuid('recording_job_id'),
    recordingStep: text('recording_step'),
    recordingPart: integer('recording_part'),
    recordingParts: integer('recording_parts'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('live_classes_course_idx').on(t.courseId, t.startsAt),
    uniqueIndex('live_classes_video_idx').on(t.videoId),
    uniqueIndex('live_classes_srt_port_idx')
      .on(t.srtPort)
      .where(sql`status <> 'ended'`),
  ],
);

/**
 * A class's ingest as the nodes share it (docs/LIVE.md): which node holds it (a lease it renews;
 * another node takes the class once `lease_until` has passed) and whether an RTMP encoder is on the
 * air through nginx (`rtmp_since`, set by nginx's on_publish callback on any node, cleared by
 * on_publish_done): the holder then reads the stream from nginx instead of listening for SRT.
 */
export const liveIngests = pgTable('live_ingests', {
  classId: uuid('class_id')
    .primaryKey()
    .references(() => liveClasses.id, { onDelete: 'cascade' }),
  /** The holding node's id (random per process), or null when none holds it. */
  holder: text('holder'),
  leaseUntil: at('lease_until'),
  rtmpSince: at('rtmp_since'),
  updatedAt: updatedAt(),
});

/**
 * Who attended a live class (docs/LIVE.md "Attendance"): when the student first fetched a key of the
 * live stream, and the seconds they played while it was live and of its recording afterwards (from
 * their progress saves). One row per class and student, made by the first of these.
 */
export const liveAttendance = pgTable(
  'live_attendance',
  {
    classId: ownedBy('class_id', () => liveClasses.id),
    studentId: ownedBy('student_id', () => users.id),
    joinedAt: at('joined_at'),
    liveSeconds: doublePrecision('live_seconds').notNull().default(0),
    recordingSeconds: doublePrecision('recording_seconds').notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => linkKey(t.classId, t.studentId, 'live_attendance_student_idx'),
);

/** Which mail of a live class a reminder row stands for (live/reminders.ts). */
export type LiveMailKind = 'day' | 'hour' | 'update' | 'cancel';

/**
 * The mails of live classes to their students (live/reminders.ts): each row is claimed (inserted)
 * before its mail is sent, so a mail goes out once however many nodes run the job; a failed send
 * removes its claim for the next run. `starts_at`/`minutes` are the time the mail told, so a class
 * moved since sends an update. No reference to the class: its cancellation outlives it.
 */
export const liveClassMails = pgTable(
  'live_class_mails',
  {
    classId: uuid('class_id').notNull(),
    studentId: ownedBy('student_id', () => users.id),
    kind: text('kind').$type<LiveMailKind>().notNull(),
    /** The calendar SEQUENCE the mail's .ics carried (0 for a mail without one). */
    sequence: bigint('sequence', { mode: 'number' }).notNull(),
    startsAt: at('starts_at').notNull(),
    minutes: integer('minutes').notNull(),
    /** Whether the mail carried the class's .ics (the student's calendar holds it). */
    withCalendar: boolean('with_calendar').notNull(),
    claimedAt: at('claimed_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.classId, t.studentId, t.kind, t.sequence] }),
    index('live_class_mails_student_idx').on(t.studentId),
  ],
);

/**
 * The school's Ed25519 keys that sign certificates (issue 39), newest active. The working copy of
 * the active one is DATA_DIR/issuer.key; here each key's did:key stays after a rotation (old
 * certificates keep verifying) and its secret, sealed under a key derived from SIGNING_KEY, rides
 * along in backups (left out of one without BACKUP_PASSPHRASE, as the signing key is).
 */
export const issuerKeys = pgTable('issuer_keys', {
  id: id(),
  did: text('did').notNull().unique(),
  publicKeyMultibase: text('public_key_multibase').notNull(),
  sealedSecret: text('sealed_secret'),
  createdAt: createdAt(),
  retiredAt: at('retired_at'),
});

/**
 * A W3C Bitstring Status List: its bits are the revoked certificates whose index it gave out. Each
 * list is of one issuer key (a rotation opens a new list), and is signed by it: a verifier that
 * wants the list's issuer to be the certificate's finds it so, old certificates included.
 */
export const credentialStatusLists = pgTable('credential_status_lists', {
  id: integer('id').primaryKey(),
  issuerDid: text('issuer_did').notNull(),
  size: integer('size').notNull(),
  nextIndex: integer('next_index').notNull().default(0),
  createdAt: createdAt(),
});

/**
 * A certificate of completion: what the PDF prints, frozen at issue, and the signed credential. One
 * not revoked per student and course (a partial unique index); a reissue revokes the old one.
 */
export const certificates = pgTable(
  'certificates',
  {
    id: id(),
    serial: text('serial').notNull().unique(),
    studentId: ownedBy('student_id', () => users.id),
    courseId: ownedBy('course_id', () => courses.id),
    name: text('name').notNull(),
    rollno: text('rollno').notNull(),
    courseName: text('course_name').notNull(),
    batch: integer('batch').notNull(),
    issuedAt: at('issued_at').notNull(),
    statusListId: integer('status_list_id')
      .notNull()
      .references(() => credentialStatusLists.id),
    statusIndex: integer('status_index').notNull(),
    credential: jsonb('credential').$type<Record<string, unknown>>().notNull(),
    revokedAt: at('revoked_at'),
    revokedReason: text('revoked_reason'),
    revokedBy: uuid('revoked_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('certificates_valid_key')
      .on(t.studentId, t.courseId)
      .where(sql`${t.revokedAt} IS NULL`),
    uniqueIndex('certificates_status_key').on(t.statusListId, t.statusIndex),
    index('certificates_course_idx').on(t.courseId),
  ],
);
