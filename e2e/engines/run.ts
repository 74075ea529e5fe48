/**
 * `npm run test:browsers`: the core journeys in Firefox ESR and WebKitGTK against the built server
 * (dist/, so `npm run build` first), started on a free port with a fresh DATA_DIR, mail in its
 * outbox and OPEN_HOURS=always. Prints `N passed, M failed`; exits 1 on any failure. Chromium runs
 * the same journeys, and more, in the Playwright specs (`npm run test:e2e`).
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TestClient } from '../../test/support/http-client';
import { freePort } from '../../test/support/processes';
import { makeUploadClip } from '../admin-setup';
import { makeLectureClip } from '../student-setup';
import { saveDiagnostics } from './diagnose';
import type { EngineDriver } from './driver';
import { launchFirefox } from './firefox';
import { journeys, type JourneyWorld } from './journeys';
import { Outbox } from './outbox';
import { launchWebKit } from './webkit';

const ADMIN_PASSWORD = 'Admin@Engines1';
const CAPTION = 'CAPTIONS IN EVERY ENGINE';
const only = (env: string | undefined) =>
  env
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const ENGINE_FILTER = only(process.env.ENGINES);
const JOURNEY_FILTER = only(process.env.JOURNEYS);
const ENGINES: [string, () => Promise<EngineDriver>][] = (
  [
    ['firefox', launchFirefox],
    ['webkit', launchWebKit],
  ] as [string, () => Promise<EngineDriver>][]
).filter(([name]) => !ENGINE_FILTER || ENGINE_FILTER.includes(name));
const JOURNEYS = journeys.filter(
  (j) => !JOURNEY_FILTER || JOURNEY_FILTER.some((word) => j.name.startsWith(word)),
);

async function startServer() {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'lectern-engines-'));
  const port = await freePort();
  const child = spawn(process.execPath, ['dist/server/main.js'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: 'memory://',
      ADMIN_PASSWORD,
      SEED_DEMO: 'false',
      OPEN_HOURS: 'always',
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      SMTP_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (
    !(await fetch(`${url}/api/time`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`Lectern did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    dataDir,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function call(client: TestClient, route: string, body: unknown) {
  const res = await client.post(route, body);
  if (res.status !== 200 && res.status !== 201)
    throw new Error(`${route}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The school every engine's journeys meet: a course, a lecture with English captions, a student per engine. */
async function setUp(url: string, outbox: Outbox) {
  const admin = new TestClient(url);
  await call(admin, '/api/admin/login', { username: 'admin', password: ADMIN_PASSWORD });
  const course = { name: 'Browser Engines 101', id: '' };
  course.id = (
    await call(admin, '/api/admin/course/create', {
      name: course.name,
      description: 'Every engine plays the lecture.',
      coursecode: 'ENG',
      batch: 3,
      startdate: '2026-01-05',
      enddate: '2026-12-18',
    })
  ).course._id;
  const students: Record<string, JourneyWorld['student']> = {};
  for (const [i, engine] of ENGINES.map(([name]) => name).entries()) {
    const rollno = `ENG-00${i + 1}`;
    const email = `${engine}@students.example`;
    const before = outbox.mails.length;
    const created = await call(admin, '/api/admin/students', { rollno, name: `${engine} Learner`, email });
    const password = (await outbox.waitFor(email, before)).text.match(/Initial password: (\S+)/)?.[1];
    if (!password) throw new Error(`no initial password mailed to ${email}`);
    await call(admin, '/api/admin/course/grantaccess', {
      courseId: course.id,
      studentId: created.student._id,
      days: 30,
    });
    students[engine] = { rollno, username: created.student.username, email, password };
  }

  const lecture = { title: 'Welcome to every engine', id: '' };
  const clip = await makeLectureClip(20);
  const fileName = 'engines.mp4';
  const form = new FormData();
  form.set('fileName', fileName);
  form.set('start', '0');
  form.set('file', new Blob([await readFile(clip)], { type: 'video/mp4' }), fileName);
  const chunk = await admin.request('POST', '/stream/upload-chunk', { body: form });
  if (chunk.status !== 200) throw new Error(`upload-chunk: ${chunk.status}`);
  const done = await admin.request('POST', '/stream/upload', { headers: { filename: fileName } });
  lecture.id = (
    await call(admin, '/api/admin/video/upload', {
      title: lecture.title,
      description: 'Played in Firefox ESR and WebKitGTK.',
      url: done.body.url,
      courses: course.id,
      rollnos: Object.values(students).map((s) => s.rollno),
    })
  ).video._id;
  const captions = new FormData();
  captions.set('language', 'en');
  captions.set('label', 'English');
  captions.set(
    'file',
    new Blob([`WEBVTT\n\n00:00:00.000 --> 00:00:20.000\n${CAPTION}\n`], { type: 'text/vtt' }),
    'en.vtt',
  );
  const saved = await admin.request('POST', `/api/admin/videos/${lecture.id}/captions`, { body: captions });
  if (saved.status !== 200 && saved.status !== 201)
    throw new Error(`captions: ${saved.status} ${JSON.stringify(saved.body)}`);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const list = await admin.get('/api/admin/video/editlist');
    if (list.body.videos.find((v: { _id: string }) => v._id === lecture.id)?.status === 'ready') break;
    if (Date.now() > deadline) throw new Error('the lecture was not ready within 60 s');
    await new Promise((r) => setTimeout(r, 250));
  }
  return { admin, course, lecture, students, uploadClip: await makeUploadClip() };
}

async function main(): Promise<number> {
  if (!ENGINES.length || !JOURNEYS.length)
    throw new Error(`ENGINES=${process.env.ENGINES} JOURNEYS=${process.env.JOURNEYS} leave nothing to run`);
  await mkdir('screenshots', { recursive: true });
  const server = await startServer();
  let passed = 0;
  let failed = 0;
  try {
    const outbox = new Outbox(path.join(server.dataDir, 'outbox'));
    const school = await setUp(server.url, outbox);
    for (const [engine, launch] of ENGINES) {
      const started = Date.now();
      let driver: EngineDriver;
      try {
        driver = await launch();
      } catch (error) {
        failed += JOURNEYS.length;
        console.log(`✗ ${engine}: the browser did not start: ${(error as Error).message}`);
        continue;
      }
      try {
        const world: JourneyWorld = {
          url: server.url,
          outbox,
          admin: school.admin,
          adminPassword: ADMIN_PASSWORD,
          course: school.course,
          lecture: school.lecture,
          caption: CAPTION,
          student: school.students[engine]!,
          uploadClip: school.uploadClip,
        };
        for (const journey of JOURNEYS) {
          const t0 = Date.now();
          try {
            await journey.run(driver, world);
            passed++;
            if (process.env.DIAGNOSE)
              await saveDiagnostics(
                driver,
                `test-results/engine-${engine}-${journey.name.split(':')[0]}-pass.json`,
              );
            console.log(`✓ ${engine}: ${journey.name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
          } catch (error) {
            failed++;
            const word = journey.name.split(':')[0];
            const diagnostics = await saveDiagnostics(
              driver,
              `test-results/engine-${engine}-${word}-failure.json`,
            ).catch((e: unknown) => `(no page diagnostics: ${(e as Error).message})`);
            console.log(`✗ ${engine}: ${journey.name}\n    ${(error as Error).message}\n    ${diagnostics}`);
            await driver.screenshot(`screenshots/engine-${engine}-failure.png`).catch(() => {});
          }
        }
      } finally {
        await driver.close();
      }
      console.log(`  ${engine} took ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
  } finally {
    await server.stop();
  }
  console.log(`${passed} passed, ${failed} failed`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
