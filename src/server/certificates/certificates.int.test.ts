import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { verifyCredential } from '@digitalcredentials/verifier-core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certificateMessages, PUBLIC_LOOKUPS_PER_MINUTE } from '../../contract/certificates';
import { auditEvents, issuerKeys, users } from '../db/schema';
import { testEngines } from '../../../test/support/databases';
import { suiteAdmin, suiteServer, type TestStudent } from '../../../test/support/test-server';
import { download, watchedCourse } from '../../../test/support/watch-fixtures';
import { verifyProof } from './credential';
import { rotateIssuerKey } from './issuer-key';
import { issueCertificateOnCompletion } from './service';

/** What an independent verifier concludes: each step of its log, or its fatal error's name. */
async function verdict(credential: Record<string, unknown>) {
  const result = await verifyCredential({ credential, knownDIDRegistries: [] });
  if (result.errors) return { error: result.errors.map((e) => e.name).join(', ') };
  return Object.fromEntries((result.log ?? []).map((step) => [step.id, step.valid]));
}

describe.each(testEngines())('certificates (%s)', (engine) => {
  const server = suiteServer({ engine, selfPublicUrl: true });
  const admin = suiteAdmin(server);
  let scratch = '';
  beforeAll(async () => void (scratch = await mkdtemp(path.join(tmpdir(), 'lectern-certificate-'))));
  afterAll(() => rm(scratch, { recursive: true, force: true }));

  /** A student who completed a new course, and their client. */
  async function graduate(student?: TestStudent) {
    const signedIn = await server.studentClient(student);
    const course = await watchedCourse(server, [signedIn.student]);
    return { ...signedIn, course };
  }

  it('issues one certificate per student and course; its PDF’s text and QR code match the public page', async () => {
    const { client, student, course } = await graduate();
    const ids = { userId: student.id, courseId: course.courseId };
    const first = await issueCertificateOnCompletion(server.ctx, ids);
    const again = await Promise.all([1, 2].map(() => issueCertificateOnCompletion(server.ctx, ids)));
    expect(again.map((c) => c.id)).toEqual([first.id, first.id]);

    const list = await client.get('/api/certificates');
    expect(list.body.certificates).toHaveLength(1);
    const mine = list.body.certificates[0];
    expect(mine).toMatchObject({
      _id: first.id,
      serial: first.serial,
      course: course.name,
      batch: 7,
      status: 'valid',
    });
    expect(mine.verifyUrl).toBe(`${server.url}/verify/${first.serial}`);

    const pdf = await download(client, `/api/certificates/${first.id}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const file = path.join(scratch, `${first.serial}.pdf`);
    await writeFile(file, pdf.bytes);
    execFileSync('qpdf', ['--check', file]); // throws on a damaged file
    const fonts = execFileSync('pdffonts', [file], { encoding: 'utf8' });
    expect(fonts).toMatch(/DejaVuSans.*yes\s+yes/); // embedded (and subset)
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    execFileSync('pdftoppm', ['-png', '-r', '110', '-f', '1', '-l', '1', '-singlefile', file, file]);
    const qr = execFileSync('zbarimg', ['-q', '--raw', `${file}.png`], { encoding: 'utf8' }).trim();
    expect(qr).toBe(mine.verifyUrl);

    // The page anyone opens from the QR code shows every printed field.
    const page = await server.client().get(`/api/public/certificates/${first.serial}`);
    expect(page.status).toBe(200);
    const shown = page.body;
    expect(shown).toMatchObject({
      status: 'valid',
      name: `Student ${student.rollno.slice(1).replace(/^0+/, '')}`,
    });
    for (const printed of [
      shown.name,
      `Roll number ${shown.rollno}`,
      shown.course,
      `Batch ${shown.batch}`,
      `Issued ${shown.issuedOn}`,
      `Serial ${shown.serial}`,
    ])
      expect(text).toContain(printed);
    expect(shown.credential.type).toEqual(['VerifiableCredential', 'OpenBadgeCredential']);
    expect(JSON.stringify(shown.credential)).not.toContain(student.email);

    // Another student reaches neither the list entry nor the PDF; staff have no student route.
    const other = await server.studentClient();
    expect((await other.client.get('/api/certificates')).body.certificates).toEqual([]);
    expect((await download(other.client, `/api/certificates/${first.id}/pdf`)).status).toBe(404);
  });

  it('an independent verifier finds the credential valid, then revoked once the admin revokes it; a reissue is valid again', async () => {
    const { student, course } = await graduate();
    const certificate = await issueCertificateOnCompletion(server.ctx, {
      userId: student.id,
      courseId: course.courseId,
    });
    expect(await verdict(certificate.credential)).toMatchObject({
      valid_signature: true,
      expiration: true,
      revocation_status: true,
    });

    const reason = 'Issued to the wrong batch';
    expect(
      (await admin.post(`/api/admin/certificates/${certificate.id}/revoke`, { reason: '  ' })).body,
    ).toEqual({
      message: certificateMessages.reasonInvalid,
    });
    const revoked = await admin.post(`/api/admin/certificates/${certificate.id}/revoke`, { reason });
    expect(revoked.status).toBe(200);
    expect(revoked.body.certificate).toMatchObject({ status: 'revoked', revokedReason: reason });
    expect((await admin.post(`/api/admin/certificates/${certificate.id}/revoke`, { reason })).status).toBe(
      409,
    );
    expect(await verdict(certificate.credential)).toMatchObject({
      valid_signature: true,
      revocation_status: false,
    });
    const page = await server.client().get(`/api/public/certificates/${certificate.serial}`);
    expect(page.body).toMatchObject({ status: 'revoked', revokedReason: reason });
    const [audit] = await server.ctx.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'certificate.revoke'));
    expect(audit).toMatchObject({
      actorId: admin.id,
      studentId: student.id,
      reason,
      details: { serial: certificate.serial },
    });

    const reissued = await admin.post(`/api/admin/certificates/${certificate.id}/reissue`);
    expect(reissued.status).toBe(201);
    expect(reissued.body.certificate.serial).not.toBe(certificate.serial);
    const fresh = await server.client().get(`/api/public/certificates/${reissued.body.certificate.serial}`);
    expect(await verdict(fresh.body.credential)).toMatchObject({
      valid_signature: true,
      revocation_status: true,
    });

    const listed = (await admin.get('/api/admin/certificates')).body.certificates as {
      serial: string;
      status: string;
    }[];
    expect(
      listed
        .filter((c) => [certificate.serial, fresh.body.serial].includes(c.serial))
        .map((c) => c.status)
        .sort(),
    ).toEqual(['revoked', 'valid']);
  });

  it('refuses a student without an e-mail with a clear 4xx, and answers bad and unknown serials', async () => {
    const { student, course } = await graduate();
    await server.ctx.db.update(users).set({ email: '' }).where(eq(users.id, student.id));
    await expect(
      issueCertificateOnCompletion(server.ctx, { userId: student.id, courseId: course.courseId }),
    ).rejects.toMatchObject({
      statusCode: 422,
      message: certificateMessages.noEmail,
    });
    const anyone = server.client();
    expect((await anyone.get('/api/public/certificates/not-a-serial')).body).toEqual({
      message: certificateMessages.serialInvalid,
    });
    expect((await anyone.get('/api/public/certificates/LEC-0000-0000-0000')).status).toBe(404);
    expect((await anyone.get('/credentials/status/999')).status).toBe(404);
    expect((await anyone.get('/credentials/status/x')).status).toBe(400);
  });

  it('serves the public page’s data at any hour, and limits lookups per client', async () => {
    const { student, course } = await graduate();
    const certificate = await issueCertificateOnCompletion(server.ctx, {
      userId: student.id,
      courseId: course.courseId,
    });
    const day = server.clock.now();
    const night = new Date(day);
    night.setUTCHours(20, 30); // 02:00 in Asia/Kolkata: the student pages are closed
    server.clock.set(night);
    const anyone = server.client();
    expect((await anyone.get('/api/certificates')).status).toBe(503);
    const statuses: number[] = [];
    for (let i = 0; i <= PUBLIC_LOOKUPS_PER_MINUTE; i++)
      statuses.push((await anyone.get(`/api/public/certificates/${certificate.serial}`)).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(PUBLIC_LOOKUPS_PER_MINUTE);
    expect(statuses.at(-1)).toBe(429);
    server.clock.set(new Date(day.getTime() + 61_000)); // opening hours again, the lookup window past
  });

  it('rotates the issuer key: new certificates name the new did:key, old ones still verify', async () => {
    const a = await graduate();
    const before = await issueCertificateOnCompletion(server.ctx, {
      userId: a.student.id,
      courseId: a.course.courseId,
    });
    const keyFile = path.join(server.ctx.config.dataDir, 'issuer.key');
    expect(existsSync(keyFile)).toBe(true);
    const oldDid = (before.credential.issuer as { id: string }).id;
    const rotated = await rotateIssuerKey(server.ctx);
    expect(rotated.did).not.toBe(oldDid);
    expect(JSON.parse(readFileSync(keyFile, 'utf8')).publicKeyMultibase).toBe(
      rotated.did.slice('did:key:'.length),
    );
    const b = await graduate();
    const after = await issueCertificateOnCompletion(server.ctx, {
      userId: b.student.id,
      courseId: b.course.courseId,
    });
    expect((after.credential.issuer as { id: string }).id).toBe(rotated.did);
    // The new list's first certificate sits at a random index, not 0 (1 chance in 131,072 it is).
    expect(after.statusIndex).not.toBe(0);
    expect(await verifyProof(before.credential)).toBe(true);
    expect(await verifyProof(after.credential)).toBe(true);
    // Each key has its own status lists, signed by it: the old certificate's list still by the old key.
    const listOf = (c: typeof before) =>
      (c.credential.credentialStatus as { statusListCredential: string }).statusListCredential;
    expect(listOf(after)).not.toBe(listOf(before));
    const oldList = await server.client().get(new URL(listOf(before)).pathname);
    expect(oldList.body.proof.verificationMethod).toMatch(new RegExp(`^${oldDid}#`));
    expect(await verifyProof(oldList.body)).toBe(true);
    const keys = await server.ctx.db.select().from(issuerKeys);
    expect(keys.find((k) => k.did === oldDid)).toMatchObject({ retiredAt: expect.any(Date) });
    expect(keys.find((k) => k.did === rotated.did)).toMatchObject({
      retiredAt: null,
      sealedSecret: expect.any(String),
    });
    // The sealed copy names no secret in the clear.
    const secret = JSON.parse(readFileSync(keyFile, 'utf8')).secretKeyMultibase as string;
    expect(JSON.stringify(keys)).not.toContain(secret);
  });
});
