import { sql, type SQL } from 'drizzle-orm';
import type {
  AnalyticsCourseRef,
  CourseAnalytics,
  CourseGridQuery,
  CourseGridSort,
  GridCell,
  GridStudent,
} from '../../contract/analytics';
import type { CourseAccessState } from '../../contract/access-policy';
import { adminMessages } from '../../contract/messages';
import { isUuid } from '../db/ids';
import type { Db } from '../db/client';
import { notFound } from '../errors';
import { activeEnrollment } from '../courses/access-sql';
import { atRiskSql } from './at-risk';
import type { CsvValue } from './csv';
import { rowsOf, uuidArray } from '../db/raw';
import { iso, num, round4, shareOf } from './queries';

interface GridVideo {
  _id: string;
  title: string;
  durationSeconds: number;
}

interface Grid {
  course: AnalyticsCourseRef;
  videos: GridVideo[];
  length: number;
}

async function requireGrid(db: Db, courseId: string): Promise<Grid> {
  if (!isUuid(courseId)) throw notFound(adminMessages.courseNotFound);
  const [course] = await rowsOf<{ id: string; name: string; batch: number; code: string }>(
    db,
    sql`select id, name, batch, course_code as code from courses where id = ${courseId}`,
  );
  if (!course) throw notFound(adminMessages.courseNotFound);
  const videos = await rowsOf<{ id: string; title: string; duration: number }>(
    db,
    sql`select id, title, duration_seconds as duration from videos
        where course_id = ${course.id} and status = 'ready' order by position, created_at, id`,
  );
  const list = videos.map((v) => ({ _id: v.id, title: v.title, durationSeconds: num(v.duration) }));
  return {
    course: { _id: course.id, name: course.name, batch: num(course.batch), coursecode: course.code },
    videos: list,
    length: list.reduce((sum, v) => sum + v.durationSeconds, 0),
  };
}

const SORT_COLUMNS: Record<CourseGridSort, SQL> = {
  name: sql`lower(name)`,
  rollno: sql`lower(rollno)`,
  share: sql`watched`,
  started: sql`started`,
  watchTime: sql`played`,
  lastActivity: sql`last_activity`,
};

interface StudentRow {
  id: string;
  rollno: string | null;
  name: string;
  email: string;
  revoked: boolean;
  active: boolean;
  started: number;
  completed: number;
  watched: number;
  played: number;
  last_activity: unknown;
  at_risk: boolean;
  matching: unknown;
  students: unknown;
  at_risk_count: unknown;
}

/**
 * One page of the course's enrolled students, with their totals from course_watch_stats, the
 * at-risk flag, and the counts over all pages. The sort runs in the database over every student.
 */
function studentPage(
  grid: Grid,
  query: CourseGridQuery,
  now: Date,
  limit: number | null,
  offset: number,
): SQL {
  const atRisk = atRiskSql(grid.videos.length, now);
  const direction = query.order === 'desc' ? sql`desc nulls last` : sql`asc nulls first`;
  return sql`
    with s as (
      select u.id, u.rollno, u.name, u.email, enrollments.access_revoked as revoked,
             ${activeEnrollment(now)} as active,
             coalesce(cs.videos_started, 0) as started, coalesce(cs.videos_completed, 0) as completed,
             coalesce(cs.watched_seconds, 0) as watched, coalesce(cs.played_seconds, 0) as played,
             cs.last_activity_at as last_activity
      from enrollments
      join users u on u.id = enrollments.student_id
      left join course_watch_stats cs on cs.course_id = enrollments.course_id and cs.student_id = enrollments.student_id
      where enrollments.course_id = ${grid.course._id}
    ), r as (
      select s.*, ${atRisk} as at_risk from s
    ), counted as (
      select r.*, count(*) over () as students, count(*) filter (where at_risk) over () as at_risk_count
      from r
    )
    select counted.*, count(*) over () as matching from counted
    where ${query.filter === 'at-risk' ? sql`at_risk` : sql`true`}
    order by ${SORT_COLUMNS[query.sort]} ${direction}, lower(name), id
    ${limit === null ? sql`` : sql`limit ${limit} offset ${offset}`}`;
}

/** Each student's share and completion per video, for a page of students. */
async function cellsOf(db: Db, grid: Grid, studentIds: string[]): Promise<Map<string, GridCell[]>> {
  const out = new Map<string, GridCell[]>();
  const index = new Map(grid.videos.map((v, i) => [v._id, i]));
  for (const id of studentIds) {
    out.set(
      id,
      grid.videos.map(() => ({ share: 0, completed: false })),
    );
  }
  if (!studentIds.length || !grid.videos.length) return out;
  const rows = await rowsOf<{ student_id: string; video_id: string; watched: number; completed: boolean }>(
    db,
    sql`select student_id, video_id, watched_seconds as watched, completed_at is not null as completed
        from video_progress
        where student_id = any(${uuidArray(studentIds)}::uuid[])
          and video_id = any(${uuidArray(grid.videos.map((v) => v._id))}::uuid[])`,
  );
  for (const row of rows) {
    const i = index.get(row.video_id)!;
    out.get(row.student_id)![i] = {
      share: round4(shareOf(num(row.watched), grid.videos[i]!.durationSeconds)),
      completed: row.completed,
    };
  }
  return out;
}

const accessOf = (row: StudentRow): CourseAccessState =>
  row.revoked ? 'revoked' : row.active ? 'active' : 'expired';

function presentStudent(row: StudentRow, grid: Grid, cells: GridCell[]): GridStudent {
  return {
    _id: row.id,
    rollno: row.rollno ?? '',
    name: row.name,
    email: row.email,
    access: accessOf(row),
    atRisk: row.at_risk,
    videosStarted: num(row.started),
    videosCompleted: num(row.completed),
    watchedShare: round4(shareOf(num(row.watched), grid.length)),
    watchSeconds: Math.round(num(row.played)),
    lastActivity: iso(row.last_activity),
    cells,
  };
}

/** GET /api/admin/analytics/courses/:courseId: a page of the students x videos grid. */
export async function courseAnalytics(
  db: Db,
  courseId: string,
  query: CourseGridQuery,
  now: Date,
): Promise<CourseAnalytics> {
  const grid = await requireGrid(db, courseId);
  const offset = (query.page - 1) * query.pageSize;
  const rows = await rowsOf<StudentRow>(db, studentPage(grid, query, now, query.pageSize, offset));
  const cells = await cellsOf(
    db,
    grid,
    rows.map((r) => r.id),
  );
  let totals = { students: 0, atRisk: 0 };
  let total: number;
  if (rows[0]) {
    totals = { students: num(rows[0].students), atRisk: num(rows[0].at_risk_count) };
    total = num(rows[0].matching);
  } else {
    // Past the last page (or nobody enrolled): the counts still matter to the screen.
    const [first] = await rowsOf<StudentRow>(db, studentPage(grid, { ...query, filter: 'all' }, now, 1, 0));
    if (first) totals = { students: num(first.students), atRisk: num(first.at_risk_count) };
    total = query.filter === 'all' ? totals.students : totals.atRisk;
  }
  return {
    course: grid.course,
    videos: grid.videos,
    totals,
    total,
    page: query.page,
    pageSize: query.pageSize,
    students: rows.map((r) => presentStudent(r, grid, cells.get(r.id)!)),
  };
}

export const COURSE_CSV_HEADER = [
  'student_id',
  'rollno',
  'student_name',
  'email',
  'access',
  'at_risk',
  'course_watched_share',
  'total_watch_seconds',
  'last_activity',
  'video_position',
  'video_id',
  'video_title',
  'video_duration_seconds',
  'watched_share',
  'completed',
] as const;

/** Students read per query while streaming the CSV. */
const CSV_STUDENTS_PER_QUERY = 250;

/**
 * The whole grid (every student matching the filter, in the asked order) as CSV rows, one per
 * student and video: students x videos rows, fetched a few hundred students at a time.
 */
export async function courseCsv(
  db: Db,
  courseId: string,
  query: CourseGridQuery,
  now: Date,
): Promise<{ course: AnalyticsCourseRef; rows: AsyncGenerator<CsvValue[]> }> {
  const grid = await requireGrid(db, courseId);
  // Every matching student in order first (one read, so concurrent saves cannot shift the pages), then their cells in slices.
  const students = await rowsOf<StudentRow>(db, studentPage(grid, query, now, null, 0));
  async function* rows(): AsyncGenerator<CsvValue[]> {
    for (let from = 0; from < students.length; from += CSV_STUDENTS_PER_QUERY) {
      const slice = students.slice(from, from + CSV_STUDENTS_PER_QUERY);
      const cells = await cellsOf(
        db,
        grid,
        slice.map((r) => r.id),
      );
      for (const row of slice) {
        const student = presentStudent(row, grid, cells.get(row.id)!);
        for (const [i, video] of grid.videos.entries()) {
          const cell = student.cells[i]!;
          yield [
            student._id,
            student.rollno,
            student.name,
            student.email,
            student.access,
            student.atRisk,
            student.watchedShare,
            student.watchSeconds,
            student.lastActivity,
            i + 1,
            video._id,
            video.title,
            Math.round(video.durationSeconds * 10) / 10,
            cell.share,
            cell.completed,
          ];
        }
      }
    }
  }
  return { course: grid.course, rows: rows() };
}
