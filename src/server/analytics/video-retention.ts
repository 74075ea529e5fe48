import { sql } from 'drizzle-orm';
import {
  QUESTION_BUCKET_SECONDS,
  type AnalyticsCourseRef,
  type QuestionBucket,
  type RetentionBucket,
  type VideoAnalytics,
} from '../../contract/analytics';
import { adminMessages } from '../../contract/messages';
import { BUCKET_SECONDS } from '../../contract/progress';
import { isUuid } from '../db/ids';
import type { Db } from '../db/client';
import { activeEnrollment } from '../courses/access-sql';
import { notFound } from '../errors';
import type { CsvValue } from './csv';
import { rowsOf } from '../db/raw';
import { num, round4, shareOf } from './queries';
import { videoCheckpointFigures } from './checkpoint-stats';

interface VideoRow {
  id: string;
  title: string;
  duration: number;
  courseId: string | null;
  courseName: string | null;
  batch: number | null;
  courseCode: string | null;
}

async function requireVideo(db: Db, videoId: string): Promise<VideoRow> {
  if (!isUuid(videoId)) throw notFound(adminMessages.videoNotFound);
  const [video] = await rowsOf<VideoRow>(
    db,
    sql`select v.id, v.title, v.duration_seconds as duration, v.course_id as "courseId", c.name as "courseName",
               c.batch, c.course_code as "courseCode"
        from videos v left join courses c on c.id = v.course_id where v.id = ${videoId}`,
  );
  if (!video) throw notFound(adminMessages.videoNotFound);
  return video;
}

/** The bucket at whose start the most viewers are gone (compared with the bucket before it). */
function biggestDropOff(buckets: RetentionBucket[]): VideoAnalytics['biggestDropOff'] {
  let best: VideoAnalytics['biggestDropOff'] = null;
  for (let i = 1; i < buckets.length; i++) {
    const lost = buckets[i - 1]!.viewers - buckets[i]!.viewers;
    if (lost > 0 && (!best || lost > best.lost)) best = { start: buckets[i]!.start, lost };
  }
  return best;
}

/**
 * A video's retention: per 5-second bucket how many students watched it and how often it was
 * played (from the counters every save keeps), with completion and the median share watched over
 * the students who may watch it now (active course access and a grant, as the player decides).
 */
export async function videoAnalytics(db: Db, videoId: string, now: Date): Promise<VideoAnalytics> {
  const video = await requireVideo(db, videoId);
  const duration = num(video.duration);
  const [audience] = await rowsOf<Record<string, unknown>>(
    db,
    sql`select count(*)::int as "withAccess",
               count(p.student_id) filter (where p.watched_seconds > 0)::int as viewers,
               count(p.completed_at)::int as completed,
               coalesce(percentile_cont(0.5) within group (order by coalesce(p.watched_seconds, 0)), 0)::float8 as median
        from video_access va
        join enrollments on enrollments.student_id = va.student_id
          and enrollments.course_id = ${video.courseId}::uuid and ${activeEnrollment(now)}
        left join video_progress p on p.student_id = va.student_id and p.video_id = va.video_id
        where va.video_id = ${video.id}`,
  );
  const counters = await rowsOf<{ bucket: number; viewers: number; playedMs: unknown }>(
    db,
    sql`select bucket, viewers, played_ms as "playedMs" from video_watch_buckets
        where video_id = ${video.id} order by bucket`,
  );
  const buckets: RetentionBucket[] = Array.from({ length: Math.ceil(duration / BUCKET_SECONDS) }, (_, i) => ({
    start: i * BUCKET_SECONDS,
    viewers: 0,
    plays: 0,
  }));
  for (const c of counters) {
    const bucket = buckets[c.bucket];
    if (!bucket) continue; // the video was re-probed shorter
    const length = Math.min(BUCKET_SECONDS, duration - bucket.start);
    bucket.viewers = num(c.viewers);
    bucket.plays = Math.round((num(c.playedMs) / 1000 / length) * 100) / 100;
  }
  const questionBuckets = await questionCounts(db, video.id, duration);
  const checkpoints = await videoCheckpointFigures(db, video.id);
  const withAccess = num(audience?.withAccess);
  const completed = num(audience?.completed);
  const course: AnalyticsCourseRef | null = video.courseId
    ? { _id: video.courseId, name: video.courseName!, batch: num(video.batch), coursecode: video.courseCode! }
    : null;
  return {
    video: { _id: video.id, title: video.title, durationSeconds: duration, course },
    bucketSeconds: BUCKET_SECONDS,
    studentsWithAccess: withAccess,
    viewers: num(audience?.viewers),
    completed,
    completionRate: withAccess > 0 ? completed / withAccess : 0,
    medianShareWatched: shareOf(num(audience?.median), duration),
    biggestDropOff: biggestDropOff(buckets),
    buckets,
    questionBucketSeconds: QUESTION_BUCKET_SECONDS,
    questionBuckets,
    checkpoints,
  };
}

/**
 * Where students got lost: questions asked per QUESTION_BUCKET_SECONDS of the video (hidden ones
 * left out), one bucket for every step of the video; a moment at the very end counts in the last.
 */
async function questionCounts(db: Db, videoId: string, duration: number): Promise<QuestionBucket[]> {
  const size = QUESTION_BUCKET_SECONDS;
  const total = Math.max(1, Math.ceil(duration / size));
  const rows = await rowsOf<{ bucket: number; n: number }>(
    db,
    sql`select least(floor(t / ${size})::int, ${total - 1}::int) as bucket, count(*)::int as n
        from questions where video_id = ${videoId} and status <> 'hidden'
        group by 1 order by 1`,
  );
  const buckets = Array.from({ length: total }, (_, i) => ({ start: i * size, questions: 0 }));
  for (const r of rows) {
    const bucket = buckets[num(r.bucket)];
    if (bucket) bucket.questions = num(r.n);
  }
  return buckets;
}

export const VIDEO_CSV_HEADER = [
  'bucket_start_seconds',
  'bucket_end_seconds',
  'viewers',
  'viewers_share',
  'plays',
] as const;

/** A checkpoint's figures in the video CSV, as `checkpoint_N_<column>`. */
const CHECKPOINT_CSV_FIGURES = ['reached', 'answered', 'attempts', 'passed', 'firstTryCorrect'] as const;
const CHECKPOINT_CSV_NAMES = ['reached', 'answered', 'attempts', 'passed', 'first_try_correct'];

/**
 * The video CSV's header: the retention columns, then five per checkpoint in time order
 * (`checkpoint_N_reached`, `_answered`, `_attempts`, `_passed`, `_first_try_correct`, N from 1),
 * filled in the row of the bucket that holds its moment.
 */
export const videoCsvHeader = (analytics: VideoAnalytics): string[] => [
  ...VIDEO_CSV_HEADER,
  ...analytics.checkpoints.flatMap((_, i) => CHECKPOINT_CSV_NAMES.map((n) => `checkpoint_${i + 1}_${n}`)),
];

/** The retention curve as CSV rows, one per bucket, with each checkpoint's figures in its bucket's row. */
export async function* videoCsvRows(analytics: VideoAnalytics): AsyncGenerator<CsvValue[]> {
  const { durationSeconds } = analytics.video;
  const size = analytics.bucketSeconds;
  const last = analytics.buckets.length - 1;
  const bucketOf = (t: number) => Math.min(Math.floor(t / size), last);
  for (const [i, b] of analytics.buckets.entries()) {
    yield [
      b.start,
      Math.min(b.start + size, Math.round(durationSeconds * 10) / 10),
      b.viewers,
      analytics.studentsWithAccess > 0 ? round4(b.viewers / analytics.studentsWithAccess) : 0,
      b.plays,
      ...analytics.checkpoints.flatMap((c): CsvValue[] =>
        CHECKPOINT_CSV_FIGURES.map((f) => (bucketOf(c.t) === i ? c[f] : null)),
      ),
    ];
  }
}
