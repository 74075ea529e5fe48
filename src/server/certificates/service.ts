import { randomBytes } from 'node:crypto';
import { and, asc, desc, eq, isNotNull, isNull, max, sql } from 'drizzle-orm';
import {
  certificateDate,
  certificateMessages,
  type AdminCertificate,
  type PublicCertificate,
  type StudentCertificate,
} from '../../contract/certificates';
import type { AppContext } from '../context';
import { auditEvents, certificates, courses, credentialStatusLists, users } from '../db/schema';
import { conflict, notFound, unprocessable } from '../errors';
import { certificateCredential, signCredential, type Issuer } from './credential';
import { issuerKey, issuerKeyByDid } from './issuer-key';
import { randomFreeIndex, STATUS_LIST_BITS, statusListCredential } from './status-list';

export type CertificateContext = Pick<AppContext, 'db' | 'config' | 'signingKey' | 'clock'>;
type CertificateRow = typeof certificates.$inferSelect;

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** `LEC-XXXX-XXXX-XXXX`: 60 random bits in Crockford base 32 (no I, L, O, U to misread). */
export function newSerial(): string {
  const bytes = randomBytes(12);
  const chars = [...bytes].map((b) => CROCKFORD[b & 31]);
  return `LEC-${chars.slice(0, 4).join('')}-${chars.slice(4, 8).join('')}-${chars.slice(8, 12).join('')}`;
}

export const verifyUrlOf = (ctx: Pick<AppContext, 'config'>, serial: string) =>
  `${ctx.config.publicUrl}/verify/${serial}`;
export const statusListUrlOf = (ctx: Pick<AppContext, 'config'>, listId: number) =>
  `${ctx.config.publicUrl}/credentials/status/${listId}`;

async function issuer(ctx: CertificateContext): Promise<Issuer> {
  return { key: await issuerKey(ctx), name: ctx.config.productName, url: ctx.config.publicUrl };
}

/**
 * Indices a list gives out before a new one opens: three quarters of its bits, so a random free one
 * is found within a few draws (the rest stay unused, the crowd a revoked bit hides in).
 */
const STATUS_LIST_FILL_SQL = sql`${credentialStatusLists.size} * 3 / 4`;

/**
 * A free index of the issuer key's newest status list, drawn at random (the W3C Bitstring Status
 * List's privacy consideration: an index handed out in order tells a verifier who was issued before
 * whom, and roughly when), opening a new list when this one gave out its share (or the key is new).
 * `nextIndex` counts the indices given out. Two issues drawing the same index at once: the
 * certificate's insert catches it (certificates_status_key) and the issue draws again.
 */
async function allocateStatusIndex(
  ctx: CertificateContext,
  issuerDid: string,
): Promise<{ listId: number; index: number }> {
  for (;;) {
    const [taken] = await ctx.db
      .update(credentialStatusLists)
      .set({ nextIndex: sql`${credentialStatusLists.nextIndex} + 1` })
      .where(
        and(
          eq(
            credentialStatusLists.id,
            sql`(SELECT max(id) FROM credential_status_lists WHERE issuer_did = ${issuerDid})`,
          ),
          sql`${credentialStatusLists.nextIndex} < ${STATUS_LIST_FILL_SQL}`,
        ),
      )
      .returning({ listId: credentialStatusLists.id, size: credentialStatusLists.size });
    if (taken) {
      const index = await randomFreeIndex(taken.size, async (candidate) => {
        const [row] = await ctx.db
          .select({ id: certificates.id })
          .from(certificates)
          .where(and(eq(certificates.statusListId, taken.listId), eq(certificates.statusIndex, candidate)));
        return !!row;
      });
      return { listId: taken.listId, index };
    }
    const [newest] = await ctx.db.select({ id: max(credentialStatusLists.id) }).from(credentialStatusLists);
    await ctx.db
      .insert(credentialStatusLists)
      .values({ id: (newest?.id ?? 0) + 1, issuerDid, size: STATUS_LIST_BITS, createdAt: ctx.clock.now() })
      .onConflictDoNothing();
  }
}

const validOf = (studentId: string, courseId: string) =>
  and(
    eq(certificates.studentId, studentId),
    eq(certificates.courseId, courseId),
    isNull(certificates.revokedAt),
  );

/**
 * Issues the student's certificate of a course they completed (the completion hook calls it): the
 * facts printed are frozen now, the credential signed with the school's issuer key. Idempotent:
 * a student has at most one valid certificate per course, and a second call answers it.
 * A student without an e-mail or roll number gets a 422 naming what is missing.
 */
export async function issueCertificateOnCompletion(
  ctx: CertificateContext,
  { userId, courseId }: { userId: string; courseId: string },
): Promise<CertificateRow> {
  const [existing] = await ctx.db.select().from(certificates).where(validOf(userId, courseId));
  if (existing) return existing;
  const [student] = await ctx.db
    .select()
    .from(users)
    .where(and(eq(users.id, userId), eq(users.role, 'student')));
  if (!student) throw notFound('Student not found.');
  const [course] = await ctx.db.select().from(courses).where(eq(courses.id, courseId));
  if (!course) throw notFound('Course not found.');
  if (!student.email.trim()) throw unprocessable(certificateMessages.noEmail);
  const { rollno } = student;
  if (!rollno?.trim()) throw unprocessable(certificateMessages.noRollno);

  // The embedded database answers without I/O: a batch of completions would run on microtasks alone
  // and starve every socket. One turn of the event loop first lets them in.
  await new Promise((resolve) => setImmediate(resolve));
  const school = await issuer(ctx);
  // A second draw only when another issue took the same status index at the same moment.
  for (let draw = 1; ; draw++) {
    const issued = await issueOnce(ctx, school, { ...student, rollno }, course);
    if (issued.row) return issued.row;
    // Another call issued it first: that one is the student's certificate.
    const [winner] = await ctx.db.select().from(certificates).where(validOf(userId, courseId));
    if (winner) return winner;
    if (draw >= 3) throw conflict('The certificate could not be issued. Please try again.');
  }
}

/** Signs and stores one certificate at a status index drawn now; no row when an insert conflict stopped it. */
async function issueOnce(
  ctx: CertificateContext,
  school: Issuer,
  student: Pick<typeof users.$inferSelect, 'id' | 'name' | 'email'> & { rollno: string },
  course: typeof courses.$inferSelect,
): Promise<{ row?: CertificateRow }> {
  const userId = student.id;
  const courseId = course.id;
  const { listId, index } = await allocateStatusIndex(ctx, school.key.did);
  const id = crypto.randomUUID();
  const issuedAt = new Date(Math.floor(ctx.clock.now().getTime() / 1000) * 1000);
  const signed = await signCredential(
    school.key,
    certificateCredential(school, {
      certificateId: id,
      email: student.email,
      courseId,
      course: course.name,
      batch: course.batch,
      issuedAt,
      statusListUrl: statusListUrlOf(ctx, listId),
      statusIndex: index,
    }),
    // In the signer thread: a batch of completions leaves progress saves their CPU (bench/certificates.ts).
    { created: issuedAt, thread: school.key },
  );
  const [row] = await ctx.db
    .insert(certificates)
    .values({
      id,
      serial: newSerial(),
      studentId: userId,
      courseId,
      name: student.name,
      rollno: student.rollno,
      courseName: course.name,
      batch: course.batch,
      issuedAt,
      statusListId: listId,
      statusIndex: index,
      credential: signed,
    })
    .onConflictDoNothing()
    .returning();
  return { row };
}

const statusOf = (row: CertificateRow) => (row.revokedAt ? 'revoked' : 'valid') as 'valid' | 'revoked';

export function presentStudent(ctx: CertificateContext, row: CertificateRow): StudentCertificate {
  return {
    _id: row.id,
    serial: row.serial,
    course: row.courseName,
    batch: row.batch,
    issuedAt: row.issuedAt.toISOString(),
    issuedOn: certificateDate(row.issuedAt, ctx.config.openTimeZone),
    status: statusOf(row),
    ...(row.revokedReason !== null && { revokedReason: row.revokedReason }),
    verifyUrl: verifyUrlOf(ctx, row.serial),
  };
}

function presentAdmin(row: CertificateRow): AdminCertificate {
  return {
    _id: row.id,
    serial: row.serial,
    studentId: row.studentId,
    name: row.name,
    rollno: row.rollno,
    courseId: row.courseId,
    course: row.courseName,
    batch: row.batch,
    issuedAt: row.issuedAt.toISOString(),
    status: statusOf(row),
    ...(row.revokedAt && { revokedAt: row.revokedAt.toISOString() }),
    ...(row.revokedReason !== null && { revokedReason: row.revokedReason }),
  };
}

/** The student's own certificates, newest first. */
export async function studentCertificates(ctx: CertificateContext, studentId: string) {
  const rows = await ctx.db
    .select()
    .from(certificates)
    .where(eq(certificates.studentId, studentId))
    .orderBy(desc(certificates.issuedAt), desc(certificates.serial));
  return rows.map((row) => presentStudent(ctx, row));
}

/** One of the student's own certificates; another student's is a 404, as an unknown one. */
export async function ownCertificate(ctx: CertificateContext, studentId: string, certificateId: string) {
  const [row] = await ctx.db
    .select()
    .from(certificates)
    .where(and(eq(certificates.id, certificateId), eq(certificates.studentId, studentId)));
  if (!row) throw notFound(certificateMessages.notFound);
  return row;
}

/** What the public verification page shows of a serial. */
export async function publicCertificate(ctx: CertificateContext, serial: string): Promise<PublicCertificate> {
  const [row] = await ctx.db.select().from(certificates).where(eq(certificates.serial, serial));
  if (!row) throw notFound(certificateMessages.notFound);
  return {
    status: statusOf(row),
    serial: row.serial,
    name: row.name,
    rollno: row.rollno,
    course: row.courseName,
    batch: row.batch,
    issuedAt: row.issuedAt.toISOString(),
    issuedOn: certificateDate(row.issuedAt, ctx.config.openTimeZone),
    ...(row.revokedReason !== null && { revokedReason: row.revokedReason }),
    credential: row.credential,
  };
}

/** Every certificate, newest first (the admin's list). */
export async function allCertificates(ctx: CertificateContext) {
  const rows = await ctx.db
    .select()
    .from(certificates)
    .orderBy(desc(certificates.issuedAt), asc(certificates.serial))
    .limit(5000);
  return rows.map(presentAdmin);
}

/** Revokes a valid certificate with `reason` (shown on its page; its status list bit set), audited. */
export async function revokeCertificate(
  ctx: CertificateContext,
  certificateId: string,
  { reason, actorId, action = 'certificate.revoke' }: { reason: string; actorId: string; action?: string },
): Promise<AdminCertificate> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(certificates)
      .set({ revokedAt: now, revokedReason: reason, revokedBy: actorId })
      .where(and(eq(certificates.id, certificateId), isNull(certificates.revokedAt)))
      .returning();
    if (!row) {
      const [any] = await tx
        .select({ id: certificates.id })
        .from(certificates)
        .where(eq(certificates.id, certificateId));
      throw any ? conflict(certificateMessages.alreadyRevoked) : notFound(certificateMessages.notFound);
    }
    await tx.insert(auditEvents).values({
      at: now,
      action,
      actorId,
      studentId: row.studentId,
      courseId: row.courseId,
      reason,
      details: { serial: row.serial },
    });
    return presentAdmin(row);
  });
}

/**
 * A new certificate in place of one (a corrected name, say): the old one revoked as reissued if it
 * was still valid, and the student's current name, roll number and e-mail in the new one.
 */
export async function reissueCertificate(ctx: CertificateContext, certificateId: string, actorId: string) {
  const [old] = await ctx.db.select().from(certificates).where(eq(certificates.id, certificateId));
  if (!old) throw notFound(certificateMessages.notFound);
  if (!old.revokedAt) {
    // Checked before revoking: a student who lost their e-mail keeps the certificate they have.
    const [student] = await ctx.db.select().from(users).where(eq(users.id, old.studentId));
    if (!student?.email.trim()) throw unprocessable(certificateMessages.noEmail);
    if (!student.rollno?.trim()) throw unprocessable(certificateMessages.noRollno);
    await revokeCertificate(ctx, certificateId, {
      reason: certificateMessages.reissueReason,
      actorId,
      action: 'certificate.reissue',
    }).catch((error: unknown) => {
      if ((error as { statusCode?: number }).statusCode !== 409) throw error;
    });
  }
  return presentAdmin(
    await issueCertificateOnCompletion(ctx, { userId: old.studentId, courseId: old.courseId }),
  );
}

const signedLists = new WeakMap<object, Map<number, { stamp: string; document: Record<string, unknown> }>>();

/**
 * The signed Bitstring Status List credential of a list: signed again only when a revocation
 * changed its bits (or the issuer key rotated), else the copy kept by this process.
 */
export async function statusListDocument(ctx: CertificateContext, listId: number) {
  const [list] = await ctx.db
    .select()
    .from(credentialStatusLists)
    .where(eq(credentialStatusLists.id, listId));
  if (!list) throw notFound(certificateMessages.statusListNotFound);
  const revoked = await ctx.db
    .select({ index: certificates.statusIndex })
    .from(certificates)
    .where(and(eq(certificates.statusListId, listId), isNotNull(certificates.revokedAt)))
    .orderBy(asc(certificates.statusIndex));
  // Signed by the key of its certificates; by the active one if that key's secret is not here.
  const current = await issuer(ctx);
  const school = { ...current, key: (await issuerKeyByDid(ctx, list.issuerDid)) ?? current.key };
  const stamp = `${school.key.did}:${revoked.map((r) => r.index).join(',')}`;
  let cache = signedLists.get(ctx);
  if (!cache) signedLists.set(ctx, (cache = new Map()));
  const kept = cache.get(listId);
  if (kept?.stamp === stamp) return kept.document;
  const unsigned = statusListCredential(school, {
    url: statusListUrlOf(ctx, listId),
    size: list.size,
    revoked: revoked.map((r) => r.index),
    validFrom: list.createdAt,
  });
  const document = await signCredential(school.key, unsigned, { created: ctx.clock.now() });
  cache.set(listId, { stamp, document });
  return document;
}
