import type { Role } from '../db/schema';
import { sql } from 'drizzle-orm';
import { videoAccess as watchRule } from '../../contract/access-policy';
import { mediaMessages } from '../../contract/media';
import {
  COMPLETION_RATIO,
  progressMessages,
  saveLimits,
  type ProgressBody,
  type VideoProgress,
  type WatchRange,
} from '../../contract/progress';
import { dayIn } from './days';
import type { Db } from '../db/client';
import { runPrepared } from '../db/prepared';
import { badRequest, notFound, refuseWatch } from '../errors';
import { presentProgress } from './presenter';
import { countCells, mergeRanges, type WatchDelta } from './watch-cells';

/** A range may end this far past the stored length: the browser's and ffprobe's durations differ by a frame or so. */
const LENGTH_TOLERANCE_SECONDS = 0.5;
/** Compare-and-swap attempts without a lock (two tabs racing lose at most one round each). */
const OPTIMISTIC_ATTEMPTS = 3;
/**
 * Wall-clock seconds of unspent allowance for played ranges a save passes on to the next. A save
 * held up on its way (a phone's network, a busy server) arrives just before the next one; counted
 * from the first's arrival, the second's honest ranges were refused and lost. Counted from where the
 * allowance was spent, at most this much of it carries over: 2x speed for 30 s, as before, no more.
 */
const RANGES_CREDIT_CARRY_SECONDS = 30;

interface ProgressState {
  durationSeconds: number;
  courseId: string | null;
  accessRevoked: boolean | null;
  accessExpiration: Date | null;
  granted: string | null;
  revision: number | null;
  positionSeconds: number | null;
  watchedSeconds: number | null;
  claimedSeconds: number | null;
  watchedCells: Uint8Array | null;
  completedAt: Date | null;
  updatedAt: Date | null;
  rangesCreditAt: Date | null;
}

/** Access, length and the student's current record of the video, in one query. */
async function readState(
  db: Db,
  studentId: string,
  videoId: string,
  inTransaction: boolean,
): Promise<ProgressState | undefined> {
  const query = sql`
    select v.duration_seconds as "durationSeconds", v.course_id as "courseId",
           e.access_revoked as "accessRevoked", e.access_expiration as "accessExpiration",
           va.video_id as "granted", p.revision, p.position_seconds as "positionSeconds",
           p.watched_seconds as "watchedSeconds", p.claimed_seconds as "claimedSeconds",
           p.watched_cells as "watchedCells", p.completed_at as "completedAt", p.updated_at as "updatedAt",
           p.ranges_credit_at as "rangesCreditAt"
    from videos v
    left join enrollments e on e.course_id = v.course_id and e.student_id = ${studentId}
    left join video_access va on va.video_id = v.id and va.student_id = ${studentId}
    left join video_progress p on p.video_id = v.id and p.student_id = ${studentId}
    where v.id = ${videoId}`;
  const [row] = inTransaction
    ? ((await db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows
    : await runPrepared<Record<string, unknown>>(db, 'progress_state', query);
  if (!row) return undefined;
  const date = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string));
  return {
    ...(row as unknown as ProgressState),
    durationSeconds: Number(row.durationSeconds),
    accessExpiration: date(row.accessExpiration),
    completedAt: date(row.completedAt),
    updatedAt: date(row.updatedAt),
    rangesCreditAt: date(row.rangesCreditAt),
  };
}

/**
 * Refuses ranges outside the video or longer than the wall time allows (watchRate x the seconds since
 * the allowance was last spent, plus slack); returns where the allowance is spent after this save.
 */
function checkRanges(ranges: readonly WatchRange[], state: ProgressState, now: Date): Date {
  if (ranges.some(([, end]) => end > state.durationSeconds + LENGTH_TOLERANCE_SECONDS)) {
    throw badRequest(progressMessages.rangesInvalid);
  }
  const total = ranges.reduce((sum, [start, end]) => sum + (end - start), 0);
  const spentTo = state.rangesCreditAt ?? state.updatedAt;
  const allowed =
    spentTo === null
      ? saveLimits.firstWatchedSeconds
      : saveLimits.watchRate * Math.max(0, (now.getTime() - spentTo.getTime()) / 1000) +
        saveLimits.rangesSlackSeconds;
  if (total > allowed) throw badRequest(progressMessages.rangesTooLong);
  if (spentTo === null) return now;
  const spent = spentTo.getTime() + (total / saveLimits.watchRate) * 1000;
  const oldest = now.getTime() - RANGES_CREDIT_CARRY_SECONDS * 1000;
  return new Date(Math.min(now.getTime(), Math.max(spent, oldest)));
}

/**
 * An old client's `watched` total: the stored claim only grows, never past the video's length,
 * and by at most saveLimits.watchRate x the wall time since the previous save (30 s on the first).
 */
function grownClaim(state: ProgressState, watched: number, now: Date): number {
  const claimed = Math.min(watched, state.durationSeconds);
  if (state.updatedAt === null) return Math.min(claimed, saveLimits.firstWatchedSeconds);
  const elapsed = Math.max(0, (now.getTime() - state.updatedAt.getTime()) / 1000);
  const before = state.claimedSeconds ?? 0;
  return Math.max(before, Math.min(claimed, before + saveLimits.watchRate * elapsed));
}

const NO_DELTA: Omit<WatchDelta, 'cells'> = {
  newSeconds: 0,
  newViewerBuckets: [],
  playedMs: [],
  playedSeconds: 0,
};
const intArray = (values: number[]) => `{${values.join(',')}}`;

/**
 * Records where a student is in a video and what they played, for videos they may watch now.
 *
 * New clients send `ranges` (what was played since their previous save): the server checks them
 * and merges them into the student's bitmap of watched seconds, the video's per-bucket viewer and
 * play counters, the student's watch time of the day and their course totals, all in one
 * statement. Old clients send only `watched`, a running total, which is rate-limited as before.
 * The student's `watched` is the larger of the two; 90% of the length completes the video for
 * good, so seeking to the end completes nothing. `newlyCompleted`: this save completed it.
 */
export async function saveProgress(
  db: Db,
  user: { id: string; role: Role },
  body: ProgressBody,
  now: Date,
  timeZone: string,
): Promise<SaveOutcome> {
  for (let attempt = 0; attempt < OPTIMISTIC_ATTEMPTS; attempt++) {
    const saved = await attemptSave(db, user, body, now, timeZone, false);
    if (saved) return saved;
    // Another tab saved between our read and our write: read again and merge onto theirs.
  }
  // Still racing (many saves of one row at once): hold the row's lock from the read to the write.
  for (;;) {
    const saved = await db.transaction(async (tx) => {
      // The totals' lock before the row's, in the order a course recount takes them (course-stats.ts).
      await tx.execute(sql`lock table course_watch_stats in row exclusive mode`);
      await tx.execute(sql`select 1 from video_progress
        where student_id = ${user.id} and video_id = ${body.videoId} for update`);
      return attemptSave(tx as unknown as Db, user, body, now, timeZone, true);
    });
    if (saved) return saved;
  }
}

export interface SaveOutcome {
  progress: VideoProgress;
  newlyCompleted: boolean;
}

/** Reads the student's record, merges the save into it, and writes it if nobody wrote it meanwhile. */
async function attemptSave(
  db: Db,
  user: { id: string; role: Role },
  body: ProgressBody,
  now: Date,
  timeZone: string,
  inTransaction: boolean,
): Promise<SaveOutcome | null> {
  const state = await readState(db, user.id, body.videoId, inTransaction);
  if (!state) throw notFound(mediaMessages.videoNotFound);
  const enrollment =
    state.courseId && state.accessRevoked !== null && state.accessExpiration !== null
      ? { accessRevoked: state.accessRevoked, accessExpiration: state.accessExpiration }
      : null;
  const decision =
    user.role === 'admin' ? 'allowed' : watchRule(enrollment, state.granted !== null, now, timeZone);
  refuseWatch(decision);

  // A player reporting an error before anything played: no record of a video never watched.
  if (state.revision === null && !body.ranges?.length && body.position === 0 && body.watched === 0)
    return {
      progress: presentProgress({ positionSeconds: 0, watchedSeconds: 0, completedAt: null }),
      newlyCompleted: false,
    };

  const duration = state.durationSeconds;
  const rangesCreditAt = body.ranges ? checkRanges(body.ranges, state, now) : state.rangesCreditAt;
  const merged = body.ranges ? mergeRanges(state.watchedCells, body.ranges, duration) : null;
  const delta = merged ?? NO_DELTA;
  const cells = merged?.cells ?? state.watchedCells;
  const before = state.claimedSeconds ?? 0;
  const claimed = body.ranges ? before : grownClaim(state, body.watched, now);
  const oldWatched = state.watchedSeconds ?? 0;
  const watched = Math.min(duration, Math.max(oldWatched, claimed, countCells(cells)));
  const position = duration > 0 ? Math.min(body.position, duration) : body.position;
  const completes = duration > 0 && watched >= COMPLETION_RATIO * duration;
  const completedAt = state.completedAt ?? (completes ? now : null);

  const written = await writeSave(db, inTransaction, {
    studentId: user.id,
    videoId: body.videoId,
    courseId: state.courseId,
    revision: state.revision,
    position,
    watched,
    claimed,
    cells,
    rangesCreditAt,
    // An old client's growing total is played time too, though it says nothing of where.
    played: delta.playedSeconds + (claimed - before),
    completedAt,
    now,
    day: dayIn(timeZone, now),
    delta,
    started: state.revision === null ? 1 : 0,
    newlyCompleted: state.completedAt === null && completedAt !== null ? 1 : 0,
    watchedGrowth: watched - oldWatched,
  });
  return written
    ? {
        progress: presentProgress({ positionSeconds: position, watchedSeconds: watched, completedAt }),
        newlyCompleted: state.completedAt === null && completedAt !== null,
      }
    : null;
}

interface SaveWrite {
  studentId: string;
  videoId: string;
  courseId: string | null;
  /** The revision read, or null when the student had no row. */
  revision: number | null;
  position: number;
  watched: number;
  claimed: number;
  cells: Uint8Array | null;
  rangesCreditAt: Date | null;
  played: number;
  completedAt: Date | null;
  now: Date;
  day: string;
  delta: Omit<WatchDelta, 'cells'>;
  started: number;
  newlyCompleted: number;
  watchedGrowth: number;
}

/**
 * One statement: the progress row (a compare-and-swap on `revision`), then, only if that row was
 * written, the bucket counters, the day's watch time and the course totals. It commits without
 * waiting for the WAL flush (set_config local to the statement's own transaction): a save is a
 * heartbeat, and losing the last second of them to a crash is harmless.
 */
async function writeSave(db: Db, inTransaction: boolean, w: SaveWrite): Promise<boolean> {
  const at = w.now.toISOString();
  const cells = w.cells ? Buffer.from(w.cells) : null;
  const completedAt = w.completedAt?.toISOString() ?? null;
  const creditAt = w.rangesCreditAt?.toISOString() ?? null;
  const progress =
    w.revision === null
      ? sql`insert into video_progress (student_id, video_id, position_seconds, watched_seconds, claimed_seconds,
              watched_cells, played_seconds, revision, completed_at, ranges_credit_at, updated_at)
            values (${w.studentId}, ${w.videoId}, ${w.position}, ${w.watched}, ${w.claimed}, ${cells}, ${w.played},
              1, ${completedAt}::timestamptz, ${creditAt}::timestamptz, ${at}::timestamptz)
            on conflict do nothing returning 1`
      : sql`update video_progress set position_seconds = ${w.position}, watched_seconds = ${w.watched},
              claimed_seconds = ${w.claimed}, watched_cells = ${cells}, played_seconds = played_seconds + ${w.played},
              revision = revision + 1, completed_at = ${completedAt}::timestamptz,
              ranges_credit_at = ${creditAt}::timestamptz, updated_at = ${at}::timestamptz
            where student_id = ${w.studentId} and video_id = ${w.videoId} and revision = ${w.revision}
            returning 1`;
  // Per bucket: a viewer where this save marked the student's first second, and the milliseconds played.
  const viewers = new Set(w.delta.newViewerBuckets);
  const buckets = [...new Set([...w.delta.newViewerBuckets, ...w.delta.playedMs.map(([b]) => b)])].sort(
    (a, b) => a - b,
  );
  const playedMs = new Map(w.delta.playedMs);
  const statement = sql`
    with p as (${progress}),
    b as (
      insert into video_watch_buckets (video_id, bucket, viewers, played_ms)
      select ${w.videoId}, u.bucket, u.viewers, u.ms
      from unnest(${intArray(buckets)}::int[], ${intArray(buckets.map((b) => (viewers.has(b) ? 1 : 0)))}::int[],
                  ${intArray(buckets.map((b) => playedMs.get(b) ?? 0))}::bigint[]) as u(bucket, viewers, ms)
      where exists (select from p)
      order by u.bucket
      on conflict (video_id, bucket) do update
        set viewers = video_watch_buckets.viewers + excluded.viewers,
            played_ms = video_watch_buckets.played_ms + excluded.played_ms
    ),
    d as (
      insert into watch_days (student_id, day, video_id, seconds)
      select ${w.studentId}, ${w.day}::date, ${w.videoId}, ${w.played}::float8
      where ${w.played}::float8 > 0 and exists (select from p)
      on conflict (student_id, day, video_id) do update set seconds = watch_days.seconds + excluded.seconds
    ),
    s as (
      insert into course_watch_stats (course_id, student_id, videos_started, videos_completed, watched_seconds,
        played_seconds, last_activity_at)
      select ${w.courseId}::uuid, ${w.studentId}, ${w.started}, ${w.newlyCompleted}, ${w.watchedGrowth}::float8,
        ${w.played}::float8, ${at}::timestamptz
      where ${w.courseId}::uuid is not null and exists (select from p)
      on conflict (course_id, student_id) do update set
        videos_started = course_watch_stats.videos_started + excluded.videos_started,
        videos_completed = course_watch_stats.videos_completed + excluded.videos_completed,
        watched_seconds = course_watch_stats.watched_seconds + excluded.watched_seconds,
        played_seconds = course_watch_stats.played_seconds + excluded.played_seconds,
        last_activity_at = greatest(course_watch_stats.last_activity_at, excluded.last_activity_at)
    )
    select (select count(*) from p)::int as written, set_config('synchronous_commit', 'off', true) as sync`;
  const [result] = inTransaction
    ? ((await db.execute(statement)) as unknown as { rows: { written: number }[] }).rows
    : await runPrepared<{ written: number }>(
        db,
        w.revision === null ? 'progress_first_save' : 'progress_save',
        statement,
      );
  return result!.written > 0;
}
