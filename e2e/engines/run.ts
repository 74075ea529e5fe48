/**
 * `npm run test:browsers`: the core journeys in Firefox ESR and WebKitGTK against the built server
 * in each delivery mode (node: every journey; nginx and s3: the lecture plays; DELIVERY_MODES picks)
 * (dist/, so `npm run build` first), started on a free port with a fresh DATA_DIR, mail in its
 * outbox and OPEN_HOURS=always. Prints `N passed, M failed`; exits 1 on any failure. Chromium runs
 * the same journeys, and more, in the Playwright specs (`npm run test:e2e`).
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { addFile } from '../../scripts/test-timings.mjs';
import { nginxLinkSecret } from '../../src/server/media/delivery/segment-urls';
import { setBucketCors } from '../../src/server/storage/bucket-cors';
import { TestClient } from '../../test/support/http-client';
import { setupLinkToken } from '../../test/support/setup-link';
import { startNginx } from '../../test/support/nginx';
import { startBuiltServer } from '../../test/support/processes';
import { createTestBucket } from '../../test/support/stores';
import { makeUploadClip } from '../admin-setup';
import { makeLectureClip } from '../student-setup';
import { saveDiagnostics } from './diagnose';
import { journaled, type Journal } from './journal';
import type { EngineDriver } from './driver';
import { BROWSER_GONE } from './page-helpers';
import { launchFirefox } from './firefox';
import { checkpointJourney, journeys, playJourney, type Journey, type JourneyWorld } from './journeys';
import { Outbox } from '../../test/support/outbox';
import { launchWebKit } from './webkit';

const ADMIN_PASSWORD = 'Admin@Engines1';
const INSTRUCTOR_PASSWORD = 'Teach@Engines1';
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
const picked = (list: Journey[]) =>
  list.filter((j) => !JOURNEY_FILTER || JOURNEY_FILTER.some((word) => j.name.startsWith(word)));
const JOURNEYS = picked(journeys);

type Mode = JourneyWorld['mode'];
/**
 * Every SEGMENT_DELIVERY mode plays in every engine (issue 27): `node` runs all journeys, `nginx`
 * and `s3` the play journey. `s3` needs the S3 server (.ci/run starts it; CI=true fails without it).
 */
const MODES: Mode[] = (only(process.env.DELIVERY_MODES) ?? ['node', 'nginx', 's3']).filter((mode) => {
  if (mode !== 's3' || process.env.S3_ENDPOINT || process.env.CI) return true;
  console.log('- s3 delivery skipped: S3_ENDPOINT is not set (eval "$(../shared/tools/s3-server/start)")');
  return false;
}) as Mode[];
/**
 * Keys of 2 s in node mode (the checkpoint journey): the checkpoint at 0:05 sits in the key period
 * 4-6 s, and every key from 6 s on is held until it is passed.
 */
const KEY_SECONDS = 2;
const CHECKPOINT = {
  t: 5,
  kind: 'single',
  prompt: 'What does `print(len("abc"))` print?',
  choices: ['2', '3', 'abc'],
  answers: [1],
  required: true,
  rewindTo: 1,
};
/**
 * The live journey (node mode): SRT listeners on ports no other tier of the run takes, and a short
 * reconnect grace, so the class ends (and its recording plays) seconds after its encoder stops.
 */
const LIVE_BASE = 41_000 + Math.floor(Math.random() * 4_000) * 5;
const LIVE_ENV = { LIVE_SRT_PORTS: `${LIVE_BASE}-${LIVE_BASE + 4}`, LIVE_RECONNECT_SECONDS: '3' };
/** nginx checks links with a secret derived from this key (the site `nginx:config` prints). */
const SIGNING_KEY = 'engines-delivery-signing-key-0123456789abcdef';

/**
 * Lectern in `mode` with its site: nginx in front of it in nginx mode, a bucket of its own (that
 * lets the site read it, as `media:cors` does) in s3 mode.
 */
async function startSite(mode: Mode) {
  const bucket = mode === 's3' ? await createTestBucket() : undefined;
  const server = await startServer(
    mode === 'node'
      ? { KEY_ROTATION_SECONDS: String(KEY_SECONDS), ...LIVE_ENV }
      : bucket
        ? { ...bucket.env, SEGMENT_DELIVERY: 's3' }
        : { SEGMENT_DELIVERY: 'nginx', SIGNING_KEY, TRUST_PROXY: '1' },
  );
  if (bucket) await setBucketCors(bucket.client, bucket.name, [new URL(server.url).origin]);
  const nginx =
    mode === 'nginx'
      ? await startNginx({
          kind: 'delivery',
          videosDir: path.join(server.dataDir, 'media', 'videos'),
          lectern: new URL(server.url).host,
          secret: nginxLinkSecret(Buffer.from(SIGNING_KEY, 'utf8')),
        })
      : undefined;
  const url = nginx?.url ?? server.url;
  return {
    mode,
    url,
    dataDir: server.dataDir,
    segmentOrigin: bucket ? new URL(process.env.S3_ENDPOINT!).origin : new URL(url).origin,
    async stop() {
      await nginx?.stop();
      await server.stop();
      await bucket?.drop();
    },
  };
}

async function startServer(env: Record<string, string> = {}) {
  const { url, dataDir, stop } = await startBuiltServer({
    prefix: 'lectern-engines-',
    env: { ADMIN_PASSWORD, LOG_FORMAT: 'json', SMTP_URL: '', ...env },
  });
  return { url, dataDir, stop };
}

async function call(client: TestClient, route: string, body: unknown) {
  const res = await client.post(route, body);
  if (res.status !== 200 && res.status !== 201)
    throw new Error(`${route}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The school every engine's journeys meet: a course, a lecture with English captions, a student per engine. */

async function setUp(url: string, outbox: Outbox, withCheckpoints: boolean) {
  const admin = new TestClient(url);
  // The password, then the second step (the admin sets up a TOTP factor on this first sign-in).
  const signedIn = await admin.adminLogin({ username: 'admin', password: ADMIN_PASSWORD });
  if (signedIn.status !== 200)
    throw new Error(`admin sign-in: ${signedIn.status} ${JSON.stringify(signedIn.body)}`);
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
  // The course's instructor answers its questions; an instructor of another course may not.
  await admin.proveFactor();
  const other = (
    await call(admin, '/api/admin/course/create', {
      name: 'Another Engine Course',
      description: 'Taught by someone else.',
      coursecode: 'ENG2',
      batch: 3,
      startdate: '2026-01-05',
      enddate: '2026-12-18',
    })
  ).course._id as string;
  const staff = async (username: string, courseIds: string[]) => {
    const email = `${username}@staff.example`;
    const before = outbox.mails.length;
    await call(admin, '/api/admin/instructors', {
      username,
      email,
      name: `${username} (teaching assistant)`,
      courseIds,
    });
    // The password is chosen through the link mailed to them; the factor is set up at sign-in.
    const token = setupLinkToken((await outbox.waitFor(email, before)).text);
    const setup = await new TestClient(url).post('/api/admin/setup', {
      token,
      newPassword: INSTRUCTOR_PASSWORD,
    });
    if (setup.status !== 200) throw new Error(`${username} set-up link: ${setup.status}`);
    const client = new TestClient(url);
    const signedIn = await client.adminLogin({ username, password: INSTRUCTOR_PASSWORD });
    if (signedIn.status !== 200) throw new Error(`${username} sign-in: ${signedIn.status}`);
    return client;
  };
  const instructor = await staff('engines-ta', [course.id]);
  const otherInstructor = await staff('other-ta', [other]);
  const students: Record<string, JourneyWorld['student']> = {};
  // Each engine's student, and a spare for the one more try after the browser itself went away.
  const people = ENGINES.flatMap(([name], i) => [
    { key: name, rollno: `ENG-00${i + 1}` },
    { key: `${name}-spare`, rollno: `ENG-10${i + 1}` },
  ]);
  for (const { key: engine, rollno } of people) {
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

  const rollnos = Object.values(students).map((s) => s.rollno);
  const upload = async (title: string, seconds: number, fileName: string) => {
    const clip = await makeLectureClip(seconds);
    const form = new FormData();
    form.set('fileName', fileName);
    form.set('start', '0');
    form.set('file', new Blob([await readFile(clip)], { type: 'video/mp4' }), fileName);
    const chunk = await admin.request('POST', '/stream/upload-chunk', { body: form });
    if (chunk.status !== 200) throw new Error(`upload-chunk: ${chunk.status}`);
    const done = await admin.request('POST', '/stream/upload', { headers: { filename: fileName } });
    return (
      await call(admin, '/api/admin/video/upload', {
        title,
        description: 'Played in Firefox ESR and WebKitGTK.',
        url: done.body.url,
        courses: course.id,
        rollnos,
      })
    ).video._id as string;
  };
  const lecture = { title: 'Welcome to every engine', id: '' };
  lecture.id = await upload(lecture.title, 20, 'engines.mp4');
  // Issue 39: a lecture of its own holds a required checkpoint (every student of the course would
  // stop at one on the shared lecture); packaged beside the first one.
  const checkpointLecture = withCheckpoints
    ? { title: 'Stops at every engine', id: await upload('Stops at every engine', 14, 'checkpoints.mp4') }
    : undefined;
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
  const waitingFor = [lecture.id, ...(checkpointLecture ? [checkpointLecture.id] : [])];
  for (;;) {
    const list = await admin.get('/api/admin/video/editlist');
    const ready = (list.body.videos as { _id: string; status: string }[]).filter(
      (v) => waitingFor.includes(v._id) && v.status === 'ready',
    );
    if (ready.length === waitingFor.length) break;
    if (Date.now() > deadline) throw new Error('the lectures were not ready within 60 s');
    await new Promise((r) => setTimeout(r, 250));
  }
  if (checkpointLecture)
    await call(admin, `/api/admin/videos/${checkpointLecture.id}/checkpoints`, CHECKPOINT);
  return {
    admin,
    instructor,
    otherInstructor,
    course,
    lecture,
    checkpointLecture,
    students,
    uploadClip: await makeUploadClip(),
  };
}

/** One journey's time and outcome in test-results/timings.json (scripts/test-timings.mjs). */
function recordJourney(
  engine: string,
  mode: Mode,
  journey: string,
  startedAt: number,
  outcome: 'passed' | 'failed',
) {
  addFile({
    tier: 'engines',
    file: `${engine} (${mode}): ${journey}`,
    seconds: Math.round((Date.now() - startedAt) / 100) / 10,
    tests: { passed: outcome === 'passed' ? 1 : 0, failed: outcome === 'failed' ? 1 : 0, skipped: 0 },
  });
}

const indent = (lines: string[]) => lines.map((line) => `      ${line}`).join('\n');

async function main(): Promise<number> {
  if (!ENGINES.length || !JOURNEYS.length)
    throw new Error(`ENGINES=${process.env.ENGINES} JOURNEYS=${process.env.JOURNEYS} leave nothing to run`);
  await mkdir('screenshots', { recursive: true });
  let passed = 0;
  let failed = 0;
  for (const mode of MODES) {
    const modeJourneys = mode === 'node' ? JOURNEYS : picked([playJourney]);
    if (!modeJourneys.length) continue;
    const site = await startSite(mode);
    try {
      const outbox = new Outbox(path.join(site.dataDir, 'outbox'));
      const school = await setUp(
        site.url,
        outbox,
        modeJourneys.some((j) => j === checkpointJourney),
      );
      for (const [engine, launch] of ENGINES) {
        const started = Date.now();
        let journal: Journal;
        try {
          journal = journaled(await launch());
        } catch (error) {
          failed += modeJourneys.length;
          console.log(`✗ ${engine}: the browser did not start: ${(error as Error).message}`);
          continue;
        }
        let driver = journal.driver;
        try {
          const world: JourneyWorld = {
            url: site.url,
            mode,
            segmentOrigin: site.segmentOrigin,
            outbox,
            admin: school.admin,
            instructor: school.instructor,
            otherInstructor: school.otherInstructor,
            instructorAccount: { username: 'engines-ta', password: INSTRUCTOR_PASSWORD },
            adminPassword: ADMIN_PASSWORD,
            course: school.course,
            lecture: school.lecture,
            checkpointLecture: school.checkpointLecture,
            caption: CAPTION,
            student: school.students[engine]!,
            classmate: school.students[`${engine}-spare`]!,
            uploadClip: school.uploadClip,
          };
          for (const journey of modeJourneys) {
            const t0 = Date.now();
            const word = journey.name.split(':')[0];
            try {
              try {
                await journey.run(driver, world);
              } catch (error) {
                // The browser process itself went away or hung (a WebKitGTK web process crash ends the
                // WebDriver session): one more try in a new browser, with the spare student (the
                // first one may be half through the first sign-in). An assertion that fails is not retried.
                if (
                  !BROWSER_GONE.test((error as Error).message) ||
                  world.student === school.students[`${engine}-spare`]
                )
                  throw error;
                console.log(
                  `  ${engine} (${mode}): the browser went away (${(error as Error).message}); once more in a new one\n` +
                    `    its last commands:\n${indent(journal.last())}`,
                );
                await driver.close().catch(() => {});
                journal = journaled(await launch());
                driver = journal.driver;
                world.student = school.students[`${engine}-spare`]!;
                world.classmate = school.students[engine]!;
                await journey.run(driver, world);
              }
              passed++;
              recordJourney(engine, mode, journey.name, t0, 'passed');
              if (process.env.DIAGNOSE)
                await saveDiagnostics(driver, `test-results/engine-${engine}-${mode}-${word}-pass.json`);
              console.log(
                `✓ ${engine} (${mode}): ${journey.name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`,
              );
            } catch (error) {
              failed++;
              recordJourney(engine, mode, journey.name, t0, 'failed');
              const diagnostics = await saveDiagnostics(
                driver,
                `test-results/engine-${engine}-${mode}-${word}-failure.json`,
              ).catch((e: unknown) => `(no page diagnostics: ${(e as Error).message})`);
              console.log(
                `✗ ${engine} (${mode}): ${journey.name}\n    ${(error as Error).message}\n    ${diagnostics}\n` +
                  `    the last commands:\n${indent(journal.last())}`,
              );
              await driver.screenshot(`screenshots/engine-${engine}-${mode}-failure.png`).catch(() => {});
            }
          }
        } finally {
          await driver.close();
        }
        console.log(`  ${engine} (${mode}) took ${((Date.now() - started) / 1000).toFixed(1)} s`);
      }
    } finally {
      await site.stop();
    }
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
