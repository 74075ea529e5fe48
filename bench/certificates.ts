/**
 * Certificates benchmark (issue 39): what an Open Badges credential costs, beside plain Ed25519.
 *
 * 1. Signing and verifying one credential (`eddsa-rdfc-2022`: JSON-LD expansion, RDF canonicalization
 *    with the bundled contexts, SHA-256, Ed25519) against Ed25519 alone (node:crypto) over the same
 *    bytes: the credential's JSON text.
 * 2. Issuing 1,000 certificates on completion (issueCertificateOnCompletion, as the completion hook
 *    calls it, in the server's own process) while 40 viewers save progress every 2 s: the saves' p95
 *    during the batch must stay within 20% of before (issue 39's figure).
 *
 *   npm run bench -- certificates
 *   BENCH_CERTIFICATES=1000   certificates issued in the batch
 *
 * Standalone: node --import tsx bench/certificates.ts
 */
import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sessionStore } from '../src/server/accounts/sessions';
import { buildApp } from '../src/server/app';
import { certificateCredential, signCredential, verifyProof } from '../src/server/certificates/credential';
import { issuerKey } from '../src/server/certificates/issuer-key';
import { issueCertificateOnCompletion } from '../src/server/certificates/service';
import { loadConfig } from '../src/server/config';
import { courses, enrollments, users, videoAccess, videos } from '../src/server/db/schema';
import { openRuntime } from '../src/server/runtime';
import { runIfMain } from '../test/support/child-main';
import { createTestDatabase } from '../test/support/databases';
import { measureSaves } from './save-load';

const BATCH = Number(process.env.BENCH_CERTIFICATES ?? 1000);
const VIEWERS = 40;
const ROUNDS = 200;

const ms = (v: number) => `${v.toFixed(2)} ms`;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

async function timed(n: number, work: (i: number) => Promise<unknown> | unknown) {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await work(i);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { mean: times.reduce((s, t) => s + t, 0) / n, p95: percentile(times, 95) };
}

export async function run(): Promise<boolean> {
  const database = await createTestDatabase('pglite');
  const dataDir = await mkdtemp(path.join(tmpdir(), 'lectern-bench-certificates-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    LOG_LEVEL: 'silent',
    OPEN_HOURS: 'always',
  });
  const runtime = await openRuntime(config, { databaseImage: database.image });
  const { ctx } = runtime;
  const app = await buildApp(ctx, {});
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  try {
    // 1. One credential, signed and verified, beside Ed25519 over the same bytes.
    const key = await issuerKey(ctx);
    const facts = (i: number) => ({
      certificateId: `6a0f6c1e-0000-4000-8000-${String(i).padStart(12, '0')}`,
      email: `student${i}@bench.test`,
      courseId: '6a0f6c1e-0000-4000-8000-000000000000',
      course: 'Rust from zero',
      batch: 7,
      issuedAt: new Date(),
      statusListUrl: `${config.publicUrl}/credentials/status/1`,
      statusIndex: i,
    });
    const issuer = { key, name: config.productName, url: config.publicUrl };
    const signed = await signCredential(key, certificateCredential(issuer, facts(0)));
    const exported = await key.keyPair.export({ publicKey: true, secretKey: true });
    // The same Ed25519 key as a node:crypto key (JWK from the multikey's raw bytes).
    const { publicKeyMultibase, secretKeyMultibase } = exported as Record<string, string>;
    const base58 = (s: string) => {
      const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
      let n = 0n;
      for (const c of s) n = n * 58n + BigInt(alphabet.indexOf(c));
      const hex = n.toString(16);
      return Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
    };
    const pub = base58(publicKeyMultibase!.slice(1)).subarray(-32);
    const sec = base58(secretKeyMultibase!.slice(1)).subarray(-32);
    const jwk = { kty: 'OKP', crv: 'Ed25519', x: pub.toString('base64url'), d: sec.toString('base64url') };
    const privateKey = createPrivateKey({ key: jwk, format: 'jwk' });
    const publicKey = createPublicKey(privateKey);
    const bytes = Buffer.from(JSON.stringify(signed));
    const plainSig = sign(null, bytes, privateKey);
    const signVc = await timed(ROUNDS, (i) => signCredential(key, certificateCredential(issuer, facts(i))));
    const verifyVc = await timed(ROUNDS, () => verifyProof(signed));
    const signPlain = await timed(ROUNDS * 10, () => sign(null, bytes, privateKey));
    const verifyPlain = await timed(ROUNDS * 10, () => verify(null, bytes, publicKey, plainSig));
    console.log(
      `credential: ${bytes.length} bytes of JSON; ${ROUNDS} eddsa-rdfc-2022 rounds, ${ROUNDS * 10} Ed25519 rounds`,
    );
    console.log('                     eddsa-rdfc-2022 (VC)      Ed25519 over the same bytes   ratio');
    for (const [what, vc, plain] of [
      ['sign', signVc, signPlain],
      ['verify', verifyVc, verifyPlain],
    ] as const)
      console.log(
        `  ${what.padEnd(8)} mean ${ms(vc.mean).padStart(9)} p95 ${ms(vc.p95).padStart(9)}   mean ${ms(plain.mean).padStart(8)} p95 ${ms(plain.p95).padStart(8)}   x${(vc.mean / plain.mean).toFixed(0)}`,
      );

    // 2. 1,000 completions issued while viewers save progress.
    const [course] = await ctx.db
      .insert(courses)
      .values({
        batch: 7,
        courseCode: 'BENCH',
        name: 'Rust from zero',
        description: 'd',
        startDate: '2026-01-01',
        endDate: '2027-12-31',
      })
      .returning();
    const [video] = await ctx.db
      .insert(videos)
      .values({
        title: 'L1',
        sourceName: 'l1.mp4',
        courseId: course!.id,
        position: 1,
        status: 'ready',
        durationSeconds: 600,
      })
      .returning();
    const people = await ctx.db
      .insert(users)
      .values(
        Array.from({ length: BATCH + VIEWERS }, (_, i) => ({
          role: 'student' as const,
          username: `bench${i}`,
          email: `bench${i}@bench.test`,
          name: `Bench Student ${i}`,
          rollno: `B${i}`,
          passwordHash: 'unused',
          firstLogin: false,
        })),
      )
      .returning({ id: users.id });
    const expires = new Date(Date.now() + 30 * 86_400_000);
    await ctx.db
      .insert(enrollments)
      .values(people.map((p) => ({ courseId: course!.id, studentId: p.id, accessExpiration: expires })));
    await ctx.db
      .insert(videoAccess)
      .values(people.slice(BATCH).map((p) => ({ videoId: video!.id, studentId: p.id })));
    const sessions = sessionStore(ctx.db);
    const viewers: { cookie: string; videoIds: string[] }[] = [];
    for (const p of people.slice(BATCH)) {
      const token = await sessions.create({ id: p.id, role: 'student' }, 'full', ctx.clock.now(), 2);
      viewers.push({ cookie: `token=${token}`, videoIds: [video!.id] });
    }
    const saves = (durationMs: number) =>
      measureSaves({
        url: `${base}/api/progress`,
        viewers,
        body: 'ranges',
        everyMs: 2_000,
        durationMs,
        warmupMs: 2_000,
      });
    const before = await saves(15_000);
    let issued = 0;
    const t0 = performance.now();
    const batch = (async () => {
      for (const p of people.slice(0, BATCH)) {
        await issueCertificateOnCompletion(ctx, { userId: p.id, courseId: course!.id });
        issued++;
      }
    })();
    const during = await saves(15_000);
    await batch;
    const batchSeconds = (performance.now() - t0) / 1000;
    const ratio = during.p95 / before.p95;
    if (before.errors || during.errors)
      console.log(
        `  save statuses: before ${JSON.stringify(before.statuses)}, during ${JSON.stringify(during.statuses)}`,
      );
    console.log(
      `issuing ${BATCH} certificates: ${batchSeconds.toFixed(1)} s (${(BATCH / batchSeconds).toFixed(0)}/s), ${issued} issued`,
    );
    console.log(
      `  progress saves (${VIEWERS} viewers, one save each 2 s)    p50        p95        p99    errors`,
    );
    for (const [name, r] of [
      ['before the batch', before],
      ['during the batch', during],
    ] as const)
      console.log(
        `  ${name.padEnd(50)} ${ms(r.p50).padStart(9)} ${ms(r.p95).padStart(10)} ${ms(r.p99).padStart(10)}   ${r.errors}`,
      );
    const pass = ratio <= 1.2 && during.errors === 0;
    console.log(`  p95 during / before: x${ratio.toFixed(2)} (target <= 1.20): ${pass ? 'met' : 'MISSED'}`);
    return pass;
  } finally {
    await app.close();
    await runtime.close();
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

runIfMain(import.meta.url, run);
