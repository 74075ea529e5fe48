import { constants } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import {
  listBackups,
  restoreBackup,
  runBackup,
  verifyBackup,
  type BackupSummary,
} from '../../src/server/backup';
import { tableStats } from '../../src/server/backup/rows';
import { FakeClock } from '../../src/server/clock';
import { loadConfig } from '../../src/server/config';
import type { TraceResult } from '../../src/contract/trace-runs';
import type { Db } from '../../src/server/db/client';
import {
  auditEvents,
  liveAttendance,
  liveIngests,
  traceRuns,
  users,
  videoKeys as videoKeysTable,
} from '../../src/server/db/schema';
import { IngestLeases } from '../../src/server/live/lease';
import { setRtmpPublisher } from '../../src/server/live/rtmp';
import { openRuntime, type Runtime } from '../../src/server/runtime';
import { openSegmentKey } from '../../src/server/videos/video-secrets';
import { issuerKey } from '../../src/server/certificates/issuer-key';
import { issueCertificateOnCompletion } from '../../src/server/certificates/service';
import { createTestDatabase, testEngines, type TestDatabase } from '../support/databases';
import { TestClient } from '../support/http-client';
import { decodeHls, makeClip, MediaTestServer, sendChunk, uploadVideo } from '../support/media-kit';
import { createTestBucket, mediaMatrix, type TestBucket } from '../support/stores';
import type { TestStudent } from '../support/test-server';
import { saveRanges } from '../support/watch-fixtures';

const PASSPHRASE = 'drill-passphrase-0123';
const { S_IFDIR } = constants;

/** Per-table counts and checksums of a live database, as the manifest computes them. */
function statsOf(db: Db) {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL TimeZone = 'UTC'`);
    return tableStats(async (text) => (await tx.execute(sql.raw(text))).rows as never);
  });
}

/** A restored install served as main.ts serves it: its own DATA_DIR, database and store. */
async function serve(
  env: Record<string, string>,
  now: Date,
): Promise<{ runtime: Runtime; url: string; close(): Promise<void> }> {
  // The school's clock where the old one stood: enrolments expire by it.
  const clock = new FakeClock(now.toISOString());
  const runtime = await openRuntime(loadConfig({ LOG_LEVEL: 'silent', OPEN_HOURS: '10-22', ...env }), {
    clock,
  });
  const app = await buildApp(runtime.ctx, {});
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    runtime,
    url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    async close() {
      await app.close();
      await runtime.close();
    },
  };
}

/** A backup's manifest, read as a person reads manifest.json (format 2: the sealed string inside). */
async function readManifestJson(backupDir: string, id: string) {
  const envelope = JSON.parse(
    await readFile(path.join(backupDir, 'backups', id, 'manifest.json'), 'utf8'),
  ) as {
    manifest: string;
  };
  return JSON.parse(envelope.manifest) as {
    tables: Record<string, unknown>;
    database: { sha256: string };
    media: { key: string; sha256: string }[];
  };
}

const VTT = 'WEBVTT\n\n00:00.000 --> 00:01.500\nWelcome to the lecture\n';

/**
 * A finished "Trace a downloaded copy" run naming the viewer's session, as the trace job leaves it
 * (marking a video and tracing a copy take minutes: the drill only needs the row).
 */
async function recordTraceRun(
  db: Db,
  run: { admin: { id: string }; videoId: string; code: string; student: TestStudent },
): Promise<void> {
  const [user] = await db.select().from(users).where(eq(users.id, run.student.id));
  const at = new Date('2026-03-02T08:30:00.000Z');
  const result: TraceResult = {
    kind: 'matched',
    videoId: run.videoId,
    title: 'lecture.mp4',
    startsAt: 0,
    decided: 40,
    undecided: 0,
    threshold: 38,
    accused: [
      {
        code: run.code,
        score: 40,
        agreements: 40,
        decided: 40,
        logInnocentChance: -27.7,
        startedAt: at.toISOString(),
        ip: '127.0.0.1',
        student: { id: user!.id, name: user!.name, rollno: user!.rollno, username: user!.username },
      },
    ],
    reason: null,
  };
  await db.insert(traceRuns).values({
    createdBy: run.admin.id,
    fileName: 'leaked lecture.mp4',
    sizeBytes: 4_200_000,
    status: 'done',
    progress: 1,
    videoId: run.videoId,
    startedAt: at,
    finishedAt: at,
    result,
  });
}

/**
 * The disaster drill: a school with everything in it is backed up while viewers watch and an admin
 * uploads, then lost (DATA_DIR, database and bucket), then restored into a fresh install, which
 * must answer exactly as before. With PostgreSQL available the restore goes to the other engine,
 * so both directions of a move between engines are part of the drill.
 */
describe.each(mediaMatrix(testEngines()))('backup drill (%s, %s store)', (engine, store) => {
  const restoreEngine = testEngines().length > 1 ? (engine === 'pglite' ? 'postgres' : 'pglite') : engine;
  let media: MediaTestServer;
  let backupDir: string;
  let summary: BackupSummary;
  let viewer: { client: TestClient; student: TestStudent };
  let videoId: string;
  let videoUrl: string;
  let before: {
    analytics: unknown;
    trace: unknown;
    traceRuns: unknown;
    liveClasses: unknown;
    attendance: { path: string; row: unknown };
    liveIngests: unknown;
    code: string;
    certificate: { serial: string; issuer: string; page: unknown };
  };
  let adminLogin: { username: string; password: string };

  beforeAll(async () => {
    backupDir = await mkdtemp(path.join(tmpdir(), 'lectern-backups-'));
    media = await MediaTestServer.start({ engine, store, env: { BACKUP_PASSPHRASE: PASSPHRASE } });
    const server = media.server;
    const admin = await server.createAdmin();
    adminLogin = admin;
    const adminClient = server.client();
    expect(
      (await adminClient.adminLogin({ username: admin.username, password: admin.password })).status,
    ).toBe(200);
    const upload = await uploadVideo(adminClient, await makeClip({ seconds: 3 }), 'lecture.mp4');
    videoId = upload.videoId;
    videoUrl = upload.body.url;
    expect((await media.settled(videoId)).status).toBe('ready');
    const form = new FormData();
    form.append('language', 'en');
    form.append('label', 'English');
    form.append('file', new Blob([VTT]), 'en.vtt');
    expect(
      (await adminClient.request('POST', `/api/admin/videos/${videoId}/captions`, { body: form })).status,
    ).toBe(200);

    viewer = await server.studentClient();
    const courseId = await media.giveAccess(viewer.student.id, videoId);
    const revoked = await server.createActiveStudent();
    await media.giveAccess(revoked.id, videoId, { courseId, revoked: true });
    const expired = await server.createActiveStudent();
    await media.giveAccess(expired.id, videoId, { courseId, expiresInDays: -3 });
    expect((await decodeHls(`${server.url}${videoUrl}`, viewer.client.token)).frames).toBeGreaterThanOrEqual(
      74,
    );
    expect((await saveRanges(viewer.client, videoId, [[0, 2.5]])).status).toBeLessThan(300);

    // Notes and questions (issue 30) travel with the backup: a note, and a question with its answer.
    expect(
      (await viewer.client.post(`/api/videos/${videoId}/notes`, { t: 1, text: 'Drill note' })).status,
    ).toBe(201);
    const asked = await viewer.client.post(`/api/videos/${videoId}/questions`, {
      t: 1,
      title: 'Drill question',
      text: '',
    });
    expect(asked.status).toBe(201);
    expect(
      (await adminClient.post(`/api/questions/${asked.body.question._id}/answers`, { text: 'Drill answer' }))
        .status,
    ).toBe(201);

    // Checkpoints (issue 39) travel too: one placed by the admin, and the viewer's passing answer.
    const checkpoint = await adminClient.post(`/api/admin/videos/${videoId}/checkpoints`, {
      t: 1,
      kind: 'single',
      prompt: 'Drill checkpoint',
      choices: ['no', 'yes'],
      answers: [1],
      required: false,
    });
    expect(checkpoint.status).toBe(201);
    expect(
      (await viewer.client.post(`/api/checkpoints/${checkpoint.body.checkpoint._id}/attempts`, { answer: 1 }))
        .body,
    ).toEqual({ correct: true });
    // A certificate (issue 39): its row, status list and the school's issuer key travel with the backup.
    const certificate = await issueCertificateOnCompletion(server.ctx, {
      userId: viewer.student.id,
      courseId,
    });

    const playback = await viewer.client.post('/api/playback', { videoId });
    expect(playback.status).toBe(200);
    const session = playback.body as { code: string };
    await recordTraceRun(server.ctx.db, { admin, videoId, code: session.code, student: viewer.student });
    // A live class scheduled (its stream key is wrapped under the signing key the backup seals).
    const scheduled = await adminClient.post('/api/admin/live-classes', {
      courseId,
      title: 'Drill live class',
      startsAt: '2026-03-03T06:00:00.000Z',
      minutes: 30,
    });
    expect(scheduled.status).toBe(201);
    // Its attendance: the student joined and watched (live/attendance.ts writes this row).
    await server.ctx.db.insert(liveAttendance).values({
      classId: scheduled.body._id,
      studentId: viewer.student.id,
      joinedAt: new Date('2026-03-03T06:01:00.000Z'),
      liveSeconds: 1200,
      recordingSeconds: 300,
    });
    const attendancePath = `/api/admin/live-classes/${scheduled.body._id}/attendance`;
    // Its ingest row: an RTMP encoder on the air through nginx, and this node's lease.
    await setRtmpPublisher(server.ctx, scheduled.body._id, new Date('2026-03-03T05:50:00.000Z'));
    await new IngestLeases(server.ctx.db).hold(scheduled.body._id);
    before = {
      liveClasses: (await adminClient.get('/api/admin/live-classes')).body,
      attendance: {
        path: attendancePath,
        row: await attendanceOf(adminClient, attendancePath, viewer.student.id),
      },
      liveIngests: await server.ctx.db.select().from(liveIngests),
      code: session.code,
      analytics: (await adminClient.get(`/api/admin/analytics/students/${viewer.student.id}`)).body,
      trace: (await adminClient.get(`/api/admin/trace/${session.code}`)).body,
      traceRuns: (await adminClient.get('/api/admin/trace-runs')).body,
      certificate: {
        serial: certificate.serial,
        issuer: (await issuerKey(server.ctx)).did,
        page: (await server.client().get(`/api/public/certificates/${certificate.serial}`)).body,
      },
    };

    // The rush: viewers fetching segments and saving progress, and an upload half sent, during the backup.
    const rushers = await Promise.all([1, 2, 3].map(async () => {
      const s = await server.studentClient();
      await media.giveAccess(s.student.id, videoId, { courseId });
      return s;
    })); // prettier-ignore
    let rushing = true;
    const rush = Promise.all(
      rushers.map(async ({ client }, i) => {
        for (let n = 1; rushing; n++) {
          await decodeHls(`${server.url}${videoUrl}`, client.token);
          await saveRanges(client, videoId, [[0, Math.min(3, 0.5 * n + i * 0.1)]]);
        }
      }),
    );
    const clip = await readFile(await makeClip({ seconds: 3 }));
    expect((await sendChunk(adminClient, 'in-progress.mp4', 0, clip.subarray(0, 64 * 1024))).status).toBe(
      200,
    );
    summary = await runBackup(server.ctx, { target: backupDir });
    rushing = false;
    await rush;
  }, 180_000);

  afterAll(async () => {
    await media?.close();
    await rm(backupDir, { recursive: true, force: true });
  });

  it('lists the backup complete and encrypted, leaves the upload in progress out and says so', async () => {
    const listed = await listBackups(media.server.ctx, backupDir);
    expect(listed.map((b) => b.id)).toEqual([summary.id]);
    expect(listed[0]).toMatchObject({ encrypted: true, signingKeyIncluded: true, videosWithoutKeys: 0 });
    expect(summary.excludedUploads.map((u) => u.label)).toEqual(['in-progress.mp4']);
    expect(summary.objectsTotal).toBeGreaterThan(3);
    expect(summary.signingKeyIncluded).toBe(true);
    expect((await verifyBackup(media.server.ctx, summary.id, { target: backupDir })).objects).toBe(
      summary.objectsTotal,
    );
  });

  it('holds no S3 secret, SMTP password, plain signing key, video key or readable row, only for its owner', async () => {
    const files = await readdir(backupDir, { recursive: true, withFileTypes: true });
    const videoKeys = await media.server.ctx.db
      .select({ videoId: videoKeysTable.videoId, key: videoKeysTable.key })
      .from(videoKeysTable);
    expect(videoKeys.length).toBeGreaterThan(0);
    const secrets = [
      media.server.ctx.signingKey.toString('hex'),
      media.server.ctx.config.s3?.secretAccessKey,
      new URL(media.server.ctx.config.smtpUrl!).password || undefined,
      PASSPHRASE,
      // Wrapped in the database (videos/video-secrets.ts), and the 16 bytes themselves.
      ...videoKeys.map((k) => k.key),
      ...videoKeys.map((k) => openSegmentKey(media.server.ctx.signingKey, k.videoId, k.key).toString('hex')),
      // The dump is encrypted whole: not even a username reads in clear.
      viewer.student.username,
    ].filter((s): s is string => Boolean(s));
    for (const entry of files.filter((f) => f.isFile())) {
      const text = (await readFile(path.join(entry.parentPath, entry.name))).toString('latin1');
      for (const secret of secrets) expect(text.includes(secret), `${entry.name} holds a secret`).toBe(false);
    }
    // Files 0600, folders 0700, the backup folder itself included.
    for (const entry of [{ parentPath: path.dirname(backupDir), name: path.basename(backupDir) }, ...files]) {
      const mode = (await stat(path.join(entry.parentPath, entry.name))).mode;
      expect((mode & 0o777).toString(8), `${entry.name}'s mode`).toBe(
        (mode & S_IFDIR) === S_IFDIR ? '700' : '600',
      );
    }
  });

  it(`restores into a fresh ${restoreEngine} install after the school is lost: same rows, passwords, playback, analytics and traces`, async () => {
    const manifest = await readManifestJson(backupDir, summary.id);
    const oldSigningKey = media.server.ctx.signingKey;
    const now = media.server.clock.now();
    // The disaster: DATA_DIR deleted, the database dropped, the bucket emptied and gone.
    await media.close();
    media = undefined as never;

    const dataDir = await mkdtemp(path.join(tmpdir(), 'lectern-restored-'));
    const database: TestDatabase | undefined =
      restoreEngine === 'postgres' ? await createTestDatabase('postgres', { fresh: true }) : undefined;
    const bucket: TestBucket | undefined = store === 's3' ? await createTestBucket() : undefined;
    const env = {
      DATA_DIR: dataDir,
      ...(database ? { DATABASE_URL: database.url } : {}),
      ...bucket?.env,
      ...(bucket ? { MEDIA_STORE: 's3' } : {}),
      BACKUP_PASSPHRASE: PASSPHRASE,
    };
    let restored: Awaited<ReturnType<typeof serve>> | undefined;
    try {
      const lines: string[] = [];
      await restoreBackup(loadConfig(env), summary.id, { from: backupDir, onLine: (l) => lines.push(l) });
      expect(lines.at(-1)).toMatch(new RegExp(`^Restored backup ${summary.id}: `));
      restored = await serve(env, now);
      expect(restored.runtime.ctx.signingKey.equals(oldSigningKey)).toBe(true);
      // Every table as backed up, and one audit row more: the restore itself (a security event).
      const { 'public.audit_events': audit, ...tables } = await statsOf(restored.runtime.ctx.db);
      const { 'public.audit_events': auditBefore, ...tablesBefore } = manifest.tables;
      expect(tables).toEqual(tablesBefore);
      expect(audit!.rows).toBe((auditBefore as { rows: number }).rows + 1);
      const restoreEvents = await restored.runtime.ctx.db
        .select({ actorId: auditEvents.actorId, details: auditEvents.details })
        .from(auditEvents)
        .where(eq(auditEvents.action, 'backup.restored'));
      expect(restoreEvents).toMatchObject([
        {
          actorId: null,
          details: { backupId: summary.id, from: backupDir, by: 'cli', outcome: 'restored' },
        },
      ]);
      // The keys came back wrapped, as the database stored them; the videos play (below).
      const restoredKeys = await restored.runtime.ctx.db
        .select({ key: videoKeysTable.key })
        .from(videoKeysTable);
      expect(restoredKeys.length).toBeGreaterThan(0);
      for (const { key } of restoredKeys) expect(key).toMatch(/^w1\./);

      const student = new TestClient(restored.url);
      const signin = await student.post('/api/signin', {
        username: viewer.student.username,
        password: viewer.student.password,
      });
      expect(signin.status).toBe(200);
      const decoded = await decodeHls(`${restored.url}${videoUrl}`, student.token);
      expect(decoded.frames).toBeGreaterThanOrEqual(74);
      const captions = await student.get(`/api/videos/${videoId}/captions`);
      expect(captions.status).toBe(200);
      expect((await student.get(`/api/videos/${videoId}/notes`)).body.notes).toMatchObject([
        { text: 'Drill note' },
      ]);
      expect((await student.get(`/api/videos/${videoId}/questions`)).body.questions).toMatchObject([
        { title: 'Drill question', mine: true, answers: [{ text: 'Drill answer', byStaff: true }] },
      ]);
      expect((await student.get(`/api/videos/${videoId}/checkpoints`)).body).toMatchObject([
        { prompt: 'Drill checkpoint', choices: ['no', 'yes'], passed: true },
      ]);

      const admin = new TestClient(restored.url);
      // The second step's code is computed for the restored school's clock, which stands still.
      const restoredClock = restored.runtime.ctx.clock;
      admin.serverNow = () => restoredClock.now();
      admin.realClock = false;
      expect(
        (
          await admin.adminLogin({
            username: adminLogin.username,
            password: adminLogin.password,
          })
        ).status,
      ).toBe(200);
      expect((await admin.get(`/api/admin/analytics/students/${viewer.student.id}`)).body).toEqual(
        before.analytics,
      );
      expect((await admin.get(`/api/admin/trace/${before.code}`)).body).toEqual(before.trace);
      expect((await admin.get('/api/admin/trace-runs')).body).toEqual(before.traceRuns);
      // The class and its stream key, which opens with the restored signing key.
      expect((await admin.get('/api/admin/live-classes')).body).toEqual(before.liveClasses);
      // Who attended it.
      expect(before.attendance.row).toMatchObject({ joinedAt: '2026-03-03T06:01:00.000Z', liveMinutes: 20 });
      expect(await attendanceOf(admin, before.attendance.path, viewer.student.id)).toEqual(
        before.attendance.row,
      );
      expect(await restored.runtime.ctx.db.select().from(liveIngests)).toEqual(before.liveIngests);
      // The certificate's page answers as before; the issuer key came back from the database into the
      // new DATA_DIR (sealed under the restored signing key), and new certificates are signed with it.
      const page = await new TestClient(restored.url).get(
        `/api/public/certificates/${before.certificate.serial}`,
      );
      expect(page.body).toEqual(before.certificate.page);
      expect((await issuerKey(restored.runtime.ctx)).did).toBe(before.certificate.issuer);
      expect(JSON.parse(await readFile(path.join(dataDir, 'issuer.key'), 'utf8')).publicKeyMultibase).toBe(
        before.certificate.issuer.slice('did:key:'.length),
      );
    } finally {
      await restored?.close();
      await database?.drop();
      await bucket?.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});

/** Damage and mistakes: each named in one line, and nothing written. */
describe('a damaged backup or a wrong passphrase', () => {
  let media: MediaTestServer;
  let backupDir: string;
  let id: string;

  beforeAll(async () => {
    backupDir = await mkdtemp(path.join(tmpdir(), 'lectern-backups-'));
    media = await MediaTestServer.start({
      engine: 'pglite',
      store: 'local',
      env: { BACKUP_PASSPHRASE: PASSPHRASE },
    });
    const admin = (await media.server.adminClient()).client;
    const { videoId } = await uploadVideo(admin, await makeClip({ seconds: 2 }), 'lecture.mp4');
    await media.settled(videoId);
    id = (await runBackup(media.server.ctx, { target: backupDir })).id;
  }, 120_000);
  afterAll(async () => {
    await media?.close();
    await rm(backupDir, { recursive: true, force: true });
  });

  const manifestFile = () => path.join(backupDir, 'backups', id, 'manifest.json');
  const manifest = () => readManifestJson(backupDir, id);
  const objectFile = (sha: string) => path.join(backupDir, 'objects', sha.slice(0, 2), sha);

  async function flipByte(file: string): Promise<() => Promise<void>> {
    const original = await readFile(file);
    const damaged = Buffer.from(original);
    damaged[Math.floor(damaged.length / 2)]! ^= 0xff;
    await writeFile(file, damaged);
    return () => writeFile(file, original);
  }

  /** Restores into a fresh DATA_DIR; answers the error and what the folder holds afterwards. */
  async function restoreFresh(env: Record<string, string> = {}) {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'lectern-restored-'));
    try {
      const error = await restoreBackup(
        loadConfig({ DATA_DIR: dataDir, BACKUP_PASSPHRASE: PASSPHRASE, ...env }),
        id,
        {
          from: backupDir,
        },
      ).then(
        () => undefined,
        (e: Error) => e,
      );
      return { error, written: await readdir(dataDir) };
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }

  it('names a flipped byte in one media object, in verify and in restore, and writes nothing', async () => {
    const { media: objects } = await manifest();
    const segment = objects.find((o) => o.key.endsWith('.ts'))!;
    const repair = await flipByte(objectFile(segment.sha256));
    try {
      await expect(verifyBackup(media.server.ctx, id, { target: backupDir })).rejects.toThrow(
        `${segment.key} (objects/${segment.sha256.slice(0, 2)}/${segment.sha256}) does not match its SHA-256`,
      );
      const { error, written } = await restoreFresh();
      expect(error?.message).toContain(segment.key);
      expect(written).toEqual([]);
    } finally {
      await repair();
    }
  });

  it('names a flipped byte in the database dump and writes nothing', async () => {
    const { database } = await manifest();
    const repair = await flipByte(objectFile(database.sha256));
    try {
      await expect(verifyBackup(media.server.ctx, id, { target: backupDir })).rejects.toThrow(
        'its database dump',
      );
      const { error, written } = await restoreFresh();
      expect(error?.message).toMatch(
        /^Backup .* has been tampered with: its database dump .* does not match its SHA-256/,
      );
      expect(written).toEqual([]);
    } finally {
      await repair();
    }
  });

  it('reports a changed manifest as tampered with, in verify and in restore, and writes nothing', async () => {
    const original = await readFile(manifestFile());
    const envelope = JSON.parse(original.toString()) as { manifest: string; seal: { kdf: { N: number } } };
    // One table's row count made to match a dump that would be swapped in; the seal left as it was.
    const edited = {
      ...envelope,
      manifest: envelope.manifest.replace(/"rows":(\d+)/, (_, n: string) => `"rows":${Number(n) + 1}`),
    };
    const weakened = { ...envelope, seal: { ...envelope.seal, kdf: { ...envelope.seal.kdf, N: 2 ** 10 } } };
    try {
      for (const [changed, message] of [
        [edited, /^Backup .* has been tampered with: its manifest does not match its authentication tag/],
        [weakened, /^Backup .* has been tampered with: its key derivation \(scrypt N=1024/],
      ] as const) {
        await writeFile(manifestFile(), JSON.stringify(changed));
        await expect(verifyBackup(media.server.ctx, id, { target: backupDir })).rejects.toThrow(message);
        const { error, written } = await restoreFresh();
        expect(error?.message).toMatch(message);
        expect(written).toEqual([]);
      }
    } finally {
      await writeFile(manifestFile(), original);
    }
  });

  it('refuses a wrong passphrase in one line and restores nothing', async () => {
    const { error, written } = await restoreFresh({ BACKUP_PASSPHRASE: 'not-the-passphrase' });
    expect(error?.message).toBe(
      `Wrong BACKUP_PASSPHRASE for backup ${id} (or its manifest's key fields were changed). Nothing was restored.`,
    );
    expect(written).toEqual([]);
  });

  it('refuses a non-empty install in one line', async () => {
    const error = await restoreBackup(media.server.ctx.config, id, { from: backupDir }).catch(
      (e: Error) => e,
    );
    expect((error as Error).message).toMatch(/^This install is not empty \(.*--replace/);
  });
});

/** One student's row of a live class's attendance (the drill enrols more students after it is read). */
async function attendanceOf(client: TestClient, path: string, studentId: string) {
  const { body } = await client.get(path);
  return (body.students as { studentId: string }[]).find((s) => s.studentId === studentId);
}
