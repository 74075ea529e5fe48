import { describe, expect, it } from 'vitest';
import { createCourseVia, enrolVia, scheduleClassVia } from '../../../test/support/course-fixtures';
import { testEngines } from '../../../test/support/databases';
import type { ReceivedMail } from '../../../test/support/smtp';
import { suiteAdmin, suiteServer } from '../../../test/support/test-server';
import { sendCancellation, sendLiveClassMails } from './reminders';
import { jobs } from '../db/schema';
import { and, eq } from 'drizzle-orm';
import type { JobPayloads } from '../jobs/types';

/** 15:30 in Asia/Kolkata on a day after the suite's: inside opening hours. */
const START = '2026-03-05T10:00:00.000Z';
const at = (ms: number) => new Date(new Date(START).getTime() + ms).toISOString();
const HOUR = 3_600_000;

/** The text/calendar part of a mail, decoded (nodemailer sends it base64 or quoted-printable). */
function icsIn(mail: ReceivedMail): string | undefined {
  const part = mail.text.split(/\r?\n--/).find((p) => /content-type: text\/calendar/i.test(p));
  if (!part) return undefined;
  const [head = '', ...rest] = part.split(/\r?\n\r?\n/);
  const body = rest
    .join('\n\n')
    .replace(/\r?\n--.*$/s, '')
    .trim();
  if (/base64/i.test(head)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/quoted-printable/i.test(head))
    return body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  return body;
}
const field = (ics: string, name: string) => new RegExp(`^${name}:(.*)$`, 'm').exec(ics)?.[1]?.trim();

describe.each(testEngines())('live class reminders over SMTP (%s)', (engine) => {
  const server = suiteServer({ engine });
  const admin = suiteAdmin(server);

  it('mails 24 h and 1 h before, once each even with two nodes; the first with the .ics; a move an update; a deletion a CANCEL', async () => {
    server.clock.set('2026-03-02T08:00:00.000Z');
    const course = await createCourseVia(admin);
    const asha = await server.createActiveStudent();
    const ravi = await server.createActiveStudent();
    const gone = await server.createActiveStudent();
    await enrolVia(admin, course._id, [asha.id, ravi.id, gone.id]);
    const revoke = await admin.post('/api/admin/course/revokeaccess', {
      courseId: course._id,
      studentId: gone.id,
      accessrevokedreason: 'left the batch',
    });
    expect(revoke.status, JSON.stringify(revoke.body)).toBe(200);
    const created = await scheduleClassVia(admin, course._id, START, {
      title: 'Closures, live',
      minutes: 45,
    });
    expect(created.status).toBe(201);
    const live = created.body;
    const mailsTo = (who: { email: string }) =>
      server.smtp.mails.filter((m) => m.to.includes(who.email) && m.subject.includes('Closures, live'));

    // Two days before: nothing due.
    expect((await sendLiveClassMails(server.ctx)).sent).toBe(0);

    // 23 h 59 before: the day's reminder, run by two nodes at once, goes once to each student with access.
    server.clock.set(at(-24 * HOUR + 60_000));
    const [one, two] = await Promise.all([sendLiveClassMails(server.ctx), sendLiveClassMails(server.ctx)]);
    expect(one.sent + two.sent).toBe(2);
    await server.smtp.waitFor(ravi.email);
    expect(mailsTo(gone)).toHaveLength(0);
    const [day] = mailsTo(asha);
    expect(mailsTo(asha)).toHaveLength(1);
    expect(day!.subject).toBe('Lectern: Live class tomorrow: Closures, live');
    const invite = icsIn(day!)!;
    expect(field(invite, 'METHOD')).toBe('REQUEST');
    const uid = field(invite, 'UID')!;
    expect(uid).toBe(`live-class-${live._id}@localhost`);
    expect(field(invite, 'DTSTART')).toBe('20260305T100000Z');
    const firstSequence = Number(field(invite, 'SEQUENCE'));
    // Again a minute later: nothing more.
    server.clock.advance(60_000);
    expect((await sendLiveClassMails(server.ctx)).sent).toBe(0);

    // The class moves 30 minutes later: an update with the same UID, a higher SEQUENCE.
    server.clock.advance(HOUR);
    const moved = await admin.request('PATCH', `/api/admin/live-classes/${live._id}`, {
      json: { startsAt: at(30 * 60_000) },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect((await sendLiveClassMails(server.ctx)).sent).toBe(2);
    const update = mailsTo(asha)[1]!;
    expect(update.subject).toBe('Lectern: Live class moved: Closures, live');
    const changed = icsIn(update)!;
    expect(field(changed, 'METHOD')).toBe('REQUEST');
    expect(field(changed, 'UID')).toBe(uid);
    expect(Number(field(changed, 'SEQUENCE'))).toBeGreaterThan(firstSequence);
    expect(field(changed, 'DTSTART')).toBe('20260305T103000Z');
    // A title change is no new time: no mail.
    await admin.request('PATCH', `/api/admin/live-classes/${live._id}`, {
      json: { title: 'Closures, live!' },
    });
    expect((await sendLiveClassMails(server.ctx)).sent).toBe(0);

    // 59 minutes before the new start: the hour's reminder, without a second .ics.
    server.clock.set(at(30 * 60_000 - 59 * 60_000));
    const [a, b] = await Promise.all([sendLiveClassMails(server.ctx), sendLiveClassMails(server.ctx)]);
    expect(a.sent + b.sent).toBe(2);
    const hour = mailsTo(asha)[2]!;
    expect(hour.subject).toBe('Lectern: Live class in one hour: Closures, live!');
    expect(icsIn(hour)).toBeUndefined();
    expect(mailsTo(asha)).toHaveLength(3);

    // Deleted: its CANCEL to both, through the job the deletion queued.
    const deleted = await admin.request('DELETE', `/api/admin/live-classes/${live._id}`);
    expect(deleted.status).toBe(200);
    const [job] = await server.ctx.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.type, 'live.cancel'), eq(jobs.status, 'queued')));
    const payload = job!.payload as JobPayloads['live.cancel'];
    expect(payload.classId).toBe(live._id);
    const [c1, c2] = await Promise.all([
      sendCancellation(server.ctx, payload),
      sendCancellation(server.ctx, payload),
    ]);
    expect(c1.sent + c2.sent).toBe(2);
    const cancel = mailsTo(asha)[3]!;
    expect(cancel.subject).toBe('Lectern: Live class cancelled: Closures, live!');
    const cancelled = icsIn(cancel)!;
    expect(field(cancelled, 'METHOD')).toBe('CANCEL');
    expect(field(cancelled, 'STATUS')).toBe('CANCELLED');
    expect(field(cancelled, 'UID')).toBe(uid);
    expect(Number(field(cancelled, 'SEQUENCE'))).toBeGreaterThan(Number(field(changed, 'SEQUENCE')));
    expect(mailsTo(gone)).toHaveLength(0);
  });

  it('runs every minute from the job registry, on every node', async () => {
    const { recurringJobs, jobHandlers } = await import('../wiring/job-registry');
    expect(recurringJobs).toContainEqual(['live.mails', 60_000]);
    const handlers = jobHandlers(server.ctx);
    expect(typeof handlers['live.mails']).toBe('function');
    expect(typeof handlers['live.cancel']).toBe('function');
  });

  it('gives a claim back when the mail server refuses, and sends it on the next run', async () => {
    server.clock.set('2026-03-02T08:00:00.000Z');
    const course = await createCourseVia(admin);
    const kiran = await server.createActiveStudent();
    await enrolVia(admin, course._id, [kiran.id]);
    await scheduleClassVia(admin, course._id, START, { title: 'Refused, live' });
    server.clock.set(at(-50 * 60_000));
    server.smtp.refuse = true;
    try {
      const refused = await sendLiveClassMails(server.ctx);
      expect(refused.failed).toBeGreaterThanOrEqual(1);
    } finally {
      server.smtp.refuse = false;
    }
    const again = await sendLiveClassMails(server.ctx);
    expect(again.sent).toBeGreaterThanOrEqual(1);
    const mail = await server.smtp.waitFor(kiran.email);
    expect(mail.subject).toBe('Lectern: Live class in one hour: Refused, live');
    // Its first mail: the hour's reminder carries the .ics.
    expect(field(icsIn(mail)!, 'METHOD')).toBe('REQUEST');
  });
});
