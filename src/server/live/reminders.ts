import { sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import type { LiveMailKind } from '../db/schema';
import { enqueueJob } from '../jobs/queue';
import { RetryLaterError, type JobHandler, type JobPayloads } from '../jobs/types';
import type { Mail } from '../mail/mailer';
import { classCalendar, type CalendarEvent } from './calendar';
import type { LiveClassRow } from './presenter';
import './job-types';

const HOUR_MS = 3_600_000;
/** The first reminder goes out 24 hours before the class, the second 1 hour before. */
export const DAY_REMINDER_MS = 24 * HOUR_MS;
export const HOUR_REMINDER_MS = HOUR_MS;

type CalendarRow = CalendarEvent['row'];
type Method = 'REQUEST' | 'CANCEL';

interface Recipient {
  student_id: string;
  email: string;
  name: string;
  with_calendar: boolean;
}

/** The sequence a class's .ics carries now (calendar.ts: seconds of its last change). */
const sequenceOf = (row: Pick<CalendarRow, 'updatedAt'>) => Math.floor(row.updatedAt.getTime() / 1000);

/** "Tue, 1 Dec 2026, 16:00 (Asia/Kolkata)": the school's zone, as the opening hours are. */
function when(at: Date, timeZone: string) {
  const text = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(at);
  return `${text} (${timeZone})`;
}

/** One mail of a class to one student, the class's .ics attached when `method` is given. */
export function classMail(
  ctx: Pick<AppContext, 'config'>,
  kind: LiveMailKind,
  row: CalendarRow & { courseId: string; videoId: string },
  to: { email: string; name: string },
  method: Method | null,
): Mail {
  const { productName, publicUrl, openTimeZone } = ctx.config;
  const base = new URL(publicUrl);
  const url = new URL(`/course/${row.courseId}?video=${row.videoId}`, base).href;
  const at = when(row.startsAt, openTimeZone);
  const subjects: Record<LiveMailKind, string> = {
    day: `Live class tomorrow: ${row.title}`,
    hour: `Live class in one hour: ${row.title}`,
    update: `Live class moved: ${row.title}`,
    cancel: `Live class cancelled: ${row.title}`,
  };
  const lines = [`Hello ${to.name || 'there'},`, ''];
  if (kind === 'cancel') lines.push(`The live class "${row.title}" on ${at} is cancelled.`);
  else {
    lines.push(
      kind === 'update'
        ? `The live class "${row.title}" has a new time: ${at}, ${row.minutes} minutes.`
        : `The live class "${row.title}" starts ${at} and lasts ${row.minutes} minutes.`,
      '',
      `Watch it live: ${url}`,
    );
  }
  if (method)
    lines.push(
      '',
      kind === 'cancel'
        ? 'The attached calendar file removes it from your calendar.'
        : 'Open the attached calendar file to add it to your calendar (it updates the copy you have).',
    );
  const mail: Mail = { to: to.email, subject: `${productName}: ${subjects[kind]}`, text: lines.join('\n') };
  if (method) {
    const content = classCalendar({ row, url, productName, host: base.hostname, method });
    mail.attachments = [
      {
        filename: `class-${row.id}.ics`,
        content,
        contentType: `text/calendar; charset=utf-8; method=${method}`,
      },
    ];
  }
  return mail;
}

/**
 * Sends the mails that `claimed` rows stand for. A claim is a row of live_class_mails inserted
 * before its mail goes: another node's insert of the same row finds it and sends nothing. A mail
 * that could not be handed over gives its claim back, for the next run.
 */
async function sendClaimed(
  ctx: AppContext,
  kind: LiveMailKind,
  row: CalendarRow & { courseId: string; videoId: string },
  claimed: Recipient[],
  methodOf: (r: Recipient) => Method | null,
  sequence: number,
): Promise<{ sent: number; failed: number }> {
  let sent = 0;
  let failed = 0;
  for (const r of claimed) {
    try {
      await ctx.mailer.send(classMail(ctx, kind, row, r, methodOf(r)));
      sent++;
      ctx.metrics.liveClassMails.inc({ kind, outcome: 'sent' });
    } catch (error) {
      failed++;
      ctx.metrics.liveClassMails.inc({ kind, outcome: 'failed' });
      ctx.logger.warn(
        { err: error, classId: row.id, studentId: r.student_id, kind },
        'live class mail failed',
      );
      await ctx.db.execute(sql`delete from live_class_mails where class_id = ${row.id}::uuid
        and student_id = ${r.student_id}::uuid and kind = ${kind} and sequence = ${sequence}`);
    }
  }
  return { sent, failed };
}

/** Students of `courseId` whose access is active at `now` (not revoked, not expired). */
const activeStudents = (courseId: string, at: string) => sql`
  select e.student_id, u.email, u.name from enrollments e join users u on u.id = e.student_id
  where e.course_id = ${courseId}::uuid and u.role = 'student'
    and not e.access_revoked and e.access_expiration >= ${at}::timestamptz`;

/**
 * The reminder of `row` due at `now` to its students with access who have not had it: `day` from
 * 24 h before the start (with the .ics), `hour` from 1 h before (with the .ics for those who never
 * got it). Claims first, then mails.
 */
async function remind(ctx: AppContext, row: LiveClassRow, now: Date) {
  const untilStart = row.startsAt.getTime() - now.getTime();
  const kind: LiveMailKind = untilStart <= HOUR_REMINDER_MS ? 'hour' : 'day';
  const at = now.toISOString();
  const { rows } = await ctx.db.execute<Recipient & Record<string, unknown>>(sql`
    with students as (${activeStudents(row.courseId, at)})
    insert into live_class_mails (class_id, student_id, kind, sequence, starts_at, minutes, with_calendar, claimed_at)
    select ${row.id}::uuid, s.student_id, ${kind}::text, 0, ${row.startsAt.toISOString()}::timestamptz, ${row.minutes}::int,
      ${kind === 'day'} or not exists (select 1 from live_class_mails m
        where m.class_id = ${row.id}::uuid and m.student_id = s.student_id and m.with_calendar),
      ${at}::timestamptz
    from students s
    on conflict do nothing
    returning student_id, with_calendar`);
  return sendClaimed(
    ctx,
    kind,
    row,
    await withAddresses(ctx, rows),
    (r) => (r.with_calendar ? 'REQUEST' : null),
    0,
  );
}

/** The address and name of claimed rows' students. */
async function withAddresses(
  ctx: AppContext,
  rows: { student_id: string; with_calendar: boolean }[],
): Promise<Recipient[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.student_id);
  const { rows: people } = await ctx.db.execute<{ id: string; email: string; name: string }>(
    sql`select id, email, name from users where id in (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`,
  );
  const byId = new Map(people.map((p) => [p.id, p]));
  return rows.flatMap((r) => {
    const who = byId.get(r.student_id);
    return who ? [{ ...r, email: who.email, name: who.name }] : [];
  });
}

/**
 * An update to the students with access whose calendar holds `row` at another time (the last .ics
 * they got told another start or length): same UID, the class's new SEQUENCE, METHOD:REQUEST.
 */
async function update(ctx: AppContext, row: LiveClassRow, now: Date) {
  const at = now.toISOString();
  const sequence = sequenceOf(row);
  const { rows } = await ctx.db.execute<Recipient & Record<string, unknown>>(sql`
    with students as (${activeStudents(row.courseId, at)}),
    told as (
      select distinct on (m.student_id) m.student_id, m.starts_at, m.minutes from live_class_mails m
      where m.class_id = ${row.id}::uuid and m.with_calendar
      order by m.student_id, m.claimed_at desc, m.sequence desc
    )
    insert into live_class_mails (class_id, student_id, kind, sequence, starts_at, minutes, with_calendar, claimed_at)
    select ${row.id}::uuid, t.student_id, 'update'::text, ${sequence}::bigint, ${row.startsAt.toISOString()}::timestamptz,
      ${row.minutes}::int, true, ${at}::timestamptz
    from told t join students s on s.student_id = t.student_id
    where t.starts_at <> ${row.startsAt.toISOString()}::timestamptz or t.minutes <> ${row.minutes}::int
    on conflict do nothing
    returning student_id, with_calendar`);
  return sendClaimed(ctx, 'update', row, await withAddresses(ctx, rows), () => 'REQUEST', sequence);
}

/**
 * Job `live.mails`: the reminders due now and the updates of classes moved since their students
 * got the .ics. Safe on any number of nodes at once (each mail is claimed in the database first);
 * a run where every mail failed is retried later (the mail server is away).
 */
export async function sendLiveClassMails(
  ctx: AppContext,
): Promise<{ classes: number; sent: number; failed: number }> {
  const now = ctx.clock.now();
  const { rows } = await ctx.db.execute<Record<string, unknown>>(sql`
    select * from live_classes where status = 'scheduled' and starts_at > ${now.toISOString()}::timestamptz`);
  let sent = 0;
  let failed = 0;
  const classes = rows.map(liveClassOf);
  for (const row of classes) {
    const updated = await update(ctx, row, now);
    sent += updated.sent;
    failed += updated.failed;
    if (row.startsAt.getTime() - now.getTime() > DAY_REMINDER_MS) continue;
    const reminded = await remind(ctx, row, now);
    sent += reminded.sent;
    failed += reminded.failed;
  }
  return { classes: classes.length, sent, failed };
}

/** A live_classes row read with raw SQL, as drizzle's select would give it. */
function liveClassOf(r: Record<string, unknown>): LiveClassRow {
  const date = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string));
  return {
    id: r.id as string,
    courseId: r.course_id as string,
    videoId: r.video_id as string,
    title: r.title as string,
    description: r.description as string,
    startsAt: date(r.starts_at)!,
    minutes: Number(r.minutes),
    streamKey: r.stream_key as string,
    srtPort: Number(r.srt_port),
    status: r.status as LiveClassRow['status'],
    liveAt: date(r.live_at),
    endedAt: date(r.ended_at),
    recordingJobId: (r.recording_job_id as string | null) ?? null,
    recordingStep: (r.recording_step as string | null) ?? null,
    recordingPart: r.recording_part == null ? null : Number(r.recording_part),
    recordingParts: r.recording_parts == null ? null : Number(r.recording_parts),
    createdBy: (r.created_by as string | null) ?? null,
    createdAt: date(r.created_at)!,
    updatedAt: date(r.updated_at)!,
  };
}

/** Queues the CANCEL of a scheduled class just deleted (its row is gone: the job carries it). */
export async function queueCancellation(ctx: Pick<AppContext, 'db' | 'clock'>, row: LiveClassRow) {
  if (row.status !== 'scheduled') return;
  await enqueueJob(ctx.db, 'live.cancel', {
    classId: row.id,
    courseId: row.courseId,
    videoId: row.videoId,
    title: row.title,
    description: row.description,
    startsAt: row.startsAt.toISOString(),
    minutes: row.minutes,
    deletedAt: ctx.clock.now().toISOString(),
  });
}

/** Sends the CANCEL of a deleted class to every student who got its .ics (whatever their access now). */
export async function sendCancellation(ctx: AppContext, payload: JobPayloads['live.cancel']) {
  const row = {
    id: payload.classId,
    courseId: payload.courseId,
    videoId: payload.videoId,
    title: payload.title,
    description: payload.description,
    startsAt: new Date(payload.startsAt),
    minutes: payload.minutes,
    updatedAt: new Date(payload.deletedAt),
  };
  const sequence = sequenceOf(row);
  const { rows } = await ctx.db.execute<Recipient & Record<string, unknown>>(sql`
    insert into live_class_mails (class_id, student_id, kind, sequence, starts_at, minutes, with_calendar, claimed_at)
    select distinct ${row.id}::uuid, m.student_id, 'cancel'::text, ${sequence}::bigint, ${payload.startsAt}::timestamptz,
      ${row.minutes}::int, true, ${ctx.clock.now().toISOString()}::timestamptz
    from live_class_mails m where m.class_id = ${row.id}::uuid and m.with_calendar and m.kind <> 'cancel'
    on conflict do nothing
    returning student_id, with_calendar`);
  return sendClaimed(ctx, 'cancel', row, await withAddresses(ctx, rows), () => 'CANCEL', sequence);
}

/** The live domain's job handlers, for the registry. */
export function liveJobHandlers(ctx: AppContext): {
  'live.mails': JobHandler<'live.mails'>;
  'live.cancel': JobHandler<'live.cancel'>;
} {
  return {
    'live.mails': async (_payload, { log }) => {
      const done = await sendLiveClassMails(ctx);
      if (done.sent || done.failed) log.info(done, 'live class mails');
      if (done.failed && !done.sent) throw new RetryLaterError(`no live class mail could be handed over`);
    },
    'live.cancel': async (payload, { log }) => {
      const done = await sendCancellation(ctx, payload);
      if (done.sent || done.failed)
        log.info({ classId: payload.classId, ...done }, 'live class cancellation mailed');
      if (done.failed)
        throw new RetryLaterError(`${done.failed} cancellation mails could not be handed over`);
    },
  };
}
