/**
 * Scan benchmark (issue 27 item 11): Debian's wapiti and sqlmap against a started Lectern, as a
 * student and as an admin. Fails when Lectern answered any 5xx or its process did not survive.
 *
 * Lectern runs from the existing build (`dist/server/main.js`: run `npm run build` first) as its own
 * process on a free loopback port, on the in-memory database (`DATABASE_URL=memory://`) with the
 * demo content (a course, two packaged lectures, a student), `OPEN_HOURS=always` and a metrics
 * token. The bench signs the admin in, takes the demo student through the first-login reset (code
 * from DATA_DIR/outbox) and signs them in, then collects real ids: the course, the lectures, a
 * playback code, a child playlist and key link, a caption it uploads.
 *
 * Every route of the route table (src/contract/routes.ts) is in PLAN below, with the ids and a sample
 * body, or with the reason it is left out; a new route does not compile until it is placed. The
 * scanners reach Lectern only through bench/scan-proxy.ts (also their forward proxy: nothing else is
 * reachable), which counts every answer, serves wapiti's start pages (the GET routes as links, each
 * POST route as a form it re-encodes as the route's JSON body) and plays wapiti's SSRF endpoint.
 *
 * Runs, in order (the admin's run changes data the student's reads, so the student goes first):
 *   wapiti as the student, sqlmap as the student, wapiti as the admin, sqlmap as the admin.
 * wapiti: default modules (ssrf against the local endpoint), crawl from / and the start page,
 * `--max-scan-time` for the crawl and `--max-attack-time` per module. sqlmap: `--batch`,
 * `--dbms=PostgreSQL`, `--level/--risk` below, a request timeout; each tool also has a wall-clock
 * cap from the bench (reported if it had to be used). 5xx are counted three ways: at the proxy, in
 * Lectern's request metrics (`http_server_request_duration_seconds_count{status_class="5xx"}`, the
 * server's own count, every request), and error-level JSON log lines. At the end the process must
 * still run and answer GET /api/time.
 *
 *   npm run bench -- scan
 *   BENCH_SCAN_ATTACK_SECONDS=30    wapiti's --max-attack-time (per module, per role)
 *   BENCH_SCAN_CRAWL_SECONDS=30     wapiti's --max-scan-time (the crawl)
 *   BENCH_SCAN_SQLMAP_LEVEL=3 BENCH_SCAN_SQLMAP_RISK=2
 *   BENCH_SCAN_SQLMAP_SECONDS=90    wall-clock cap per sqlmap target
 *   BENCH_SCAN_KEEP=dir             keep the reports and tool output there
 *
 * Standalone: node --import tsx bench/scan.ts
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { splitRouteKey } from '../src/contract/route-kit';
import { routes, type RouteKey } from '../src/contract/routes';
import { TestClient } from '../test/support/http-client';
import { freePort } from '../test/support/processes';
import { ScanProxy, type FieldKind, type JsonForm, type RunCounts } from './scan-proxy';
import { runIfMain } from '../test/support/child-main';
import { waitForDemoLectures } from '../test/support/demo-lectures';
import { outboxCode } from '../test/support/outbox';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const ADMIN_PASSWORD = 'Admin@Scan2026';
const STUDENT_PASSWORD = 'Student@Scan2026';
const METRICS_TOKEN = 'bench-scan-metrics-token-0123456789';
const ATTACK_SECONDS = Number(process.env.BENCH_SCAN_ATTACK_SECONDS ?? 30);
const CRAWL_SECONDS = Number(process.env.BENCH_SCAN_CRAWL_SECONDS ?? 30);
const SQLMAP_LEVEL = Number(process.env.BENCH_SCAN_SQLMAP_LEVEL ?? 3);
const SQLMAP_RISK = Number(process.env.BENCH_SCAN_SQLMAP_RISK ?? 2);
const SQLMAP_SECONDS = Number(process.env.BENCH_SCAN_SQLMAP_SECONDS ?? 90);
/** wapiti 3.0.4's default modules; ssrf is pointed at the proxy's local endpoint, never wapiti3.ovh. */
const WAPITI_MODULES = [
  'blindsql',
  'cookieflags',
  'csp',
  'exec',
  'file',
  'http_headers',
  'permanentxss',
  'redirect',
  'sql',
  'ssrf',
  'xss',
];
/**
 * Public routes behind the per-client sign-in and code limits (100 per client per 15 minutes): the
 * proxy sends their requests from rotating loopback addresses, as an attacker with many addresses
 * would, so the scanners' payloads reach the handler instead of a 429 after the first hundred. The
 * per-account limits still apply.
 */
const SPREAD_ROUTES = new Set([
  '/api/signin',
  '/api/admin/login',
  '/api/password/forgot',
  '/api/password/reset',
]);
const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
type Severity = (typeof SEVERITIES)[number];
type Role = 'student' | 'admin';

// ---------------------------------------------------------------------------------------------
// Lectern as a process

interface Lectern {
  url: string;
  port: number;
  dataDir: string;
  pid: number;
  output(): string;
  alive(): boolean;
  /** How it ended: "exit 1", "signal SIGKILL"; empty while it runs. */
  ended(): string;
  /** Error-level (and fatal) JSON log lines so far. */
  errorLines(): string[];
  stop(): Promise<void>;
}

async function startLectern(work: string): Promise<Lectern> {
  const main = path.join(ROOT, 'dist/server/main.js');
  if (!existsSync(main)) throw new Error(`${main} is missing: run npm run build first`);
  const dataDir = path.join(work, 'data');
  await mkdir(dataDir);
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env };
  // Nothing from the caller's Lectern settings: this instance is the one described here.
  for (const name of Object.keys(env))
    if (
      /^(S3_|BACKUP_|SMTP_|TLS_|METRICS_|SEGMENT_|SHUTDOWN_)/.test(name) ||
      ['REDIS_URL', 'WEB_CONCURRENCY', 'ROLE', 'TRUST_PROXY', 'MEDIA_STORE', 'SIGNING_KEY'].includes(name)
    )
      delete env[name];
  const child = spawn(process.execPath, [main], {
    cwd: ROOT,
    env: {
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: 'memory://',
      SEED_DEMO: 'true',
      OPEN_HOURS: 'always',
      ADMIN_PASSWORD,
      METRICS_TOKEN,
      BACKUP_SCHEDULE: 'off',
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const errors: string[] = [];
  let partial = '';
  child.stdout.on('data', (d: Buffer) => {
    output += d;
    partial += d;
    const lines = partial.split('\n');
    partial = lines.pop()!;
    for (const line of lines) {
      try {
        const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string } };
        if ((entry.level ?? 0) >= 50)
          errors.push(`${entry.msg ?? ''}${entry.err ? `: ${entry.err.message}` : ''}`);
      } catch {
        // not a log line
      }
    }
  });
  child.stderr.on('data', (d: Buffer) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const alive = () => child.exitCode === null && child.signalCode === null;
  const lectern: Lectern = {
    url,
    port,
    dataDir,
    pid: child.pid!,
    output: () => output,
    alive,
    ended: () =>
      child.exitCode !== null
        ? `exit ${child.exitCode}`
        : child.signalCode
          ? `signal ${child.signalCode}`
          : '',
    errorLines: () => errors,
    async stop() {
      if (!alive()) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (!alive()) throw new Error(`Lectern exited with ${child.exitCode ?? child.signalCode}:\n${output}`);
    const ready = await fetch(`${url}/api/time`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready && /Demo student: /.test(output)) return lectern;
    if (Date.now() > deadline) {
      await lectern.stop();
      throw new Error(`Lectern did not start in 2 minutes:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** VmRSS and VmHWM (peak) of a process, in MB. */
function memoryMB(pid: number): { rss: number; peak: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
    return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}

/**
 * Lectern's own count of 5xx answers, by "METHOD route" (request metrics, every request it
 * answered); undefined when it cannot be read (the process is gone).
 */
async function serverErrorCounts(lectern: Lectern): Promise<Map<string, number> | undefined> {
  const res = await fetch(`${lectern.url}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  }).catch(() => undefined);
  if (!res?.ok) return undefined;
  const counts = new Map<string, number>();
  for (const line of (await res.text()).split('\n')) {
    const m = /^http_server_request_duration_seconds_count\{([^}]*)\} (\d+)/.exec(line);
    if (!m || !m[1]!.includes('status_class="5xx"')) continue;
    const label = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(m[1]!)?.[1] ?? '?';
    counts.set(`${label('method')} ${label('route')}`, Number(m[2]));
  }
  return counts;
}

function diffCounts(
  after: Map<string, number> | undefined,
  before: Map<string, number> | undefined,
): Map<string, number> | undefined {
  if (!after || !before) return undefined;
  const diff = new Map<string, number>();
  for (const [key, n] of after) if (n > (before.get(key) ?? 0)) diff.set(key, n - (before.get(key) ?? 0));
  return diff;
}

const total = (counts: Map<string, number> | undefined) =>
  [...(counts ?? new Map<string, number>()).values()].reduce((a, b) => a + b, 0);

// ---------------------------------------------------------------------------------------------
// Accounts and ids

/** The demo student's first sign-in, the reset with the mailed code; returns their username. */
async function resetDemoStudent(lectern: Lectern): Promise<string> {
  const match = /Demo student: (\S+) \/ (\S+)/.exec(lectern.output());
  if (!match) throw new Error('the server did not print the demo student');
  const [, username, password] = match as unknown as [string, string, string];
  const first = new TestClient(lectern.url);
  const signIn = await first.signIn({ username, password });
  if (signIn.status !== 200)
    throw new Error(`demo sign-in failed: ${signIn.status} ${JSON.stringify(signIn.body)}`);
  const reset = await first.resetPassword(await outboxCode(lectern.dataDir), STUDENT_PASSWORD);
  if (reset.status !== 200) throw new Error(`reset failed: ${reset.status} ${JSON.stringify(reset.body)}`);
  return username;
}

async function signedIn(url: string, role: Role, username: string): Promise<TestClient> {
  const client = new TestClient(url);
  const res =
    role === 'admin'
      ? await client.adminLogin({ username, password: ADMIN_PASSWORD })
      : await client.signIn({ username, password: STUDENT_PASSWORD });
  if (res.status !== 200)
    throw new Error(`${role} sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
  return client;
}

const cookieHeader = (client: TestClient) => [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

async function sessionValid(client: TestClient, role: Role): Promise<boolean> {
  const res = await client.get<{ valid?: boolean }>(
    role === 'admin' ? '/api/admin/auth/admincheck' : '/api/auth/check',
  );
  return res.status === 200 && res.body.valid === true;
}

interface Ids {
  courseId: string;
  videoId: string;
  studentId: string;
  playbackCode: string;
  /** A child playlist link (path and signed query) and a key link, as the student's player gets them. */
  childPlaylist: string;
  keyLink: string;
  thumbnail: string;
  /** A video id nothing has: the target of the deleting route, so only an injection could delete. */
  unknownId: string;
}

async function collectIds(student: TestClient, admin: TestClient): Promise<Ids> {
  const courses = await student.get<{ courses: { courseId: string }[] }>('/api/courses');
  const courseId = courses.body.courses?.[0]?.courseId;
  if (!courseId) throw new Error(`the demo student has no course: ${JSON.stringify(courses.body)}`);
  const videos = await student.post<{ videos: { _id: string; thumbnail: string }[] }>('/api/videos', {
    courseId,
  });
  const video = videos.body.videos?.[0];
  if (!video) throw new Error(`the demo course has no lecture: ${JSON.stringify(videos.body)}`);
  const playback = await student.post<{ code: string }>('/api/playback', { videoId: video._id });
  if (playback.status !== 200) throw new Error(`POST /api/playback: ${playback.status}`);

  const base = new URL(student.baseUrl);
  const master = await student.get<string>(`/stream/videos/${video._id}/master.m3u8`);
  if (master.status !== 200) throw new Error(`master playlist: ${master.status}`);
  const masterUrl = new URL(`/stream/videos/${video._id}/master.m3u8`, base);
  const childLine = String(master.body)
    .split('\n')
    .find((l) => l.trim() && !l.startsWith('#'));
  if (!childLine) throw new Error(`no child playlist in:\n${master.body}`);
  const childUrl = new URL(childLine.trim(), masterUrl);
  const child = await student.get<string>(childUrl.pathname + childUrl.search);
  if (child.status !== 200) throw new Error(`child playlist: ${child.status}`);
  const keyUri = /#EXT-X-KEY:[^\n]*URI="([^"]+)"/.exec(String(child.body))?.[1];
  if (!keyUri) throw new Error(`no key link in:\n${child.body}`);
  const keyUrl = new URL(keyUri, childUrl);

  const students = await admin.get<{ students: { _id: string; username: string }[] }>('/api/admin/students');
  const studentId = students.body.students?.[0]?._id;
  if (!studentId) throw new Error(`no student listed: ${JSON.stringify(students.body)}`);

  // A caption, so the student's caption routes have a track to serve.
  const form = new FormData();
  form.set('language', 'en');
  form.set('label', 'English');
  form.set('file', new Blob(['WEBVTT\n\n00:00:01.000 --> 00:00:03.000\nHello class\n']), 'captions.vtt');
  const caption = await admin.request('POST', `/api/admin/videos/${video._id}/captions`, { body: form });
  if (caption.status !== 200)
    throw new Error(`caption upload: ${caption.status} ${JSON.stringify(caption.body)}`);

  return {
    courseId,
    videoId: video._id,
    studentId,
    playbackCode: playback.body.code,
    childPlaylist: childUrl.pathname + childUrl.search,
    keyLink: keyUrl.pathname + keyUrl.search,
    thumbnail: video.thumbnail.startsWith('/thumbnails/') ? video.thumbnail : '/thumbnails/none.jpg',
    unknownId: randomUUID(),
  };
}

// ---------------------------------------------------------------------------------------------
// The plan: every route, what the scanners send it, or why they leave it

type Probe =
  | { path: string; query?: Record<string, string>; body?: Record<string, unknown> }
  | { path: string; multipart: Record<string, string> }
  | { skip: string };

const DELETE_SKIP =
  'DELETE: wapiti sends no DELETE to a target and its only input is the path (the authorization matrix and hostile tier send it)';

function plan(ids: Ids): Record<RouteKey, Probe> {
  const { courseId, videoId, studentId } = ids;
  const nobody = { username: 'scan-nobody', password: 'Scan@Nobody2026' };
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const csv = (n: number) => `rollno,name,email\nSCAN-${n},Scan Student ${n},scan${n}@lectern.local\n`;
  return {
    'GET /api/time': { path: '/api/time' },
    'GET /api/auth/check': { path: '/api/auth/check' },
    'POST /api/signin': { path: '/api/signin', body: nobody },
    'POST /api/otp/send': {
      skip: 'needs a first-login session, which the scan student no longer has; takes no input',
    },
    'POST /api/password/reset': {
      path: '/api/password/reset',
      body: { username: 'scan-nobody', otp: '123456', newpassword: 'Scan@Nobody2027' },
    },
    'POST /api/password/forgot': { path: '/api/password/forgot', body: { username: 'scan-nobody' } },
    'POST /api/logout': { skip: 'would end the session the scan runs in; takes no input' },
    'GET /api/courses': { path: '/api/courses' },
    'POST /api/videos': { path: '/api/videos', body: { courseId } },
    'POST /api/rollno': { path: '/api/rollno', body: { courseId } },
    'POST /api/progress': { path: '/api/progress', body: { videoId, position: 1, watched: 1, rate: 1 } },
    'POST /api/admin/login': { path: '/api/admin/login', body: nobody },
    'POST /api/admin/setup': {
      path: '/api/admin/setup',
      body: { token: 'scan-no-such-link', newPassword: 'Scan@Nobody2027' },
    },
    'POST /api/admin/login/totp': { path: '/api/admin/login/totp', body: { code: '123456' } },
    'POST /api/admin/mfa/enrolment': {
      skip: 'the scan admin has a factor: answers 403 and takes no input',
    },
    'POST /api/admin/mfa/enrol': { path: '/api/admin/mfa/enrol', body: { code: '123456' } },
    'GET /api/admin/mfa': { path: '/api/admin/mfa' },
    'POST /api/admin/mfa/verify': { skip: 'wrong codes would spend the admin budget the scan signs in with' },
    'POST /api/admin/mfa/recovery-codes': {
      skip: 'takes no input; would replace the scan admin recovery codes',
    },
    'POST /api/admin/password': { skip: 'would change the password the scan signs in with' },
    'POST /api/admin/login/passkey/options': {
      skip: 'takes no input; the scan admin has no passkey (answers 403)',
    },
    'POST /api/admin/login/passkey': {
      skip: 'refused assertions would spend the admin budget the scan signs in with (as POST /mfa/verify)',
    },
    'POST /api/admin/passkeys/registration': { skip: 'takes no input; leaves a pending challenge only' },
    'POST /api/admin/passkeys': {
      path: '/api/admin/passkeys',
      body: {
        name: 'Scan key',
        credential: {
          id: 'c2Nhbi1rZXk',
          rawId: 'c2Nhbi1rZXk',
          type: 'public-key',
          response: { clientDataJSON: 'e30', attestationObject: 'oA' },
        },
      },
    },
    'GET /api/admin/passkeys': { path: '/api/admin/passkeys' },
    'DELETE /api/admin/passkeys/:passkeyId': { skip: DELETE_SKIP },
    'GET /api/admin/sessions': { path: '/api/admin/sessions' },
    'POST /api/admin/sessions/end-others': {
      skip: 'takes no input; would end the sessions of the other scan',
    },
    'GET /api/admin/auth/admincheck': { path: '/api/admin/auth/admincheck' },
    'POST /api/admin/logout': { skip: 'would end the session the scan runs in; takes no input' },
    'GET /api/admin/course/dashboard': { path: '/api/admin/course/dashboard' },
    'GET /api/admin/course/list': { path: '/api/admin/course/list' },
    'GET /api/admin/video/courses': { path: '/api/admin/video/courses' },
    'POST /api/admin/course/create': {
      path: '/api/admin/course/create',
      body: {
        batch: 7,
        coursecode: 'SCAN101',
        name: 'Scan course',
        description: 'Made by the scan bench',
        startdate: day(-1),
        enddate: day(90),
      },
    },
    'POST /api/admin/course/update': {
      path: '/api/admin/course/update',
      body: {
        courseId,
        batch: 1,
        courseCode: 'DEMO101',
        name: 'Welcome to Lectern',
        description: 'The demo course',
        startDate: day(-7),
        endDate: day(90),
      },
    },
    'GET /api/admin/course/accesslist': { path: '/api/admin/course/accesslist', query: { courseId } },
    'POST /api/admin/course/grantaccess': {
      path: '/api/admin/course/grantaccess',
      body: { courseId, studentId, days: 365 },
    },
    'POST /api/admin/course/revokeaccess': {
      path: '/api/admin/course/revokeaccess',
      body: { courseId, studentId, accessrevokedreason: 'scan' },
    },
    'POST /api/admin/students/dropdown': {
      path: '/api/admin/students/dropdown',
      body: { courseid: courseId },
    },
    'GET /api/admin/video/editlist': { path: '/api/admin/video/editlist' },
    'GET /api/admin/getvideolist': { path: '/api/admin/getvideolist' },
    'POST /api/admin/students/access': { path: '/api/admin/students/access', body: { videoId, courseId } },
    'POST /api/admin/video/upload': {
      path: '/api/admin/video/upload',
      body: {
        title: 'Scan lecture',
        description: 'Made by the scan bench',
        url: 'scan.mp4',
        courses: courseId,
      },
    },
    'POST /api/admin/video/grant': {
      path: '/api/admin/video/grant',
      body: { videoId, studentIds: [studentId] },
    },
    'POST /api/admin/video/revoke': {
      path: '/api/admin/video/revoke',
      body: { videoId, studentIds: [studentId] },
    },
    'POST /api/admin/delete/video': { path: '/api/admin/delete/video', body: { videoId: ids.unknownId } },
    'POST /api/admin/video/update': {
      path: '/api/admin/video/update',
      body: { videoId, title: 'Sample lecture 1', description: 'The first sample', course: courseId },
    },
    'GET /api/admin/students': {
      path: '/api/admin/students',
      query: { q: 'demo', courseId, page: '1', pageSize: '20' },
    },
    'POST /api/admin/students': {
      path: '/api/admin/students',
      body: { rollno: 'SCAN-1', name: 'Scan Student', email: 'scan1@lectern.local', username: 'scan1' },
    },
    'POST /api/admin/students/import/preview': {
      path: '/api/admin/students/import/preview',
      body: { csv: csv(2) },
    },
    'POST /api/admin/students/import': { path: '/api/admin/students/import', body: { csv: csv(3) } },
    'POST /api/admin/students/enrol': {
      path: '/api/admin/students/enrol',
      body: { courseId, studentIds: [studentId], days: 365 },
    },
    'POST /api/admin/students/:studentId/password': {
      skip: "its only input is the path; on the scan student it would end the student's sessions",
    },
    'GET /api/admin/instructors': { path: '/api/admin/instructors' },
    'POST /api/admin/instructors': {
      skip: 'would add an account the scan does not clean up; the hostile tier sends it',
    },
    'POST /api/admin/instructors/:userId/courses': {
      path: `/api/admin/instructors/${studentId}/courses`,
      body: { courseIds: [courseId] },
    },
    'DELETE /api/admin/instructors/:userId': { skip: DELETE_SKIP },
    'GET /api/admin/students/:studentId/history': { path: `/api/admin/students/${studentId}/history` },
    'GET /api/admin/analytics/videos/:videoId': {
      path: `/api/admin/analytics/videos/${videoId}`,
      query: { format: 'json' },
    },
    'GET /api/admin/analytics/courses/:courseId': {
      path: `/api/admin/analytics/courses/${courseId}`,
      query: { format: 'json', sort: 'name', order: 'asc', filter: 'all', page: '1', pageSize: '20' },
    },
    'GET /api/admin/analytics/students/:studentId': {
      path: `/api/admin/analytics/students/${studentId}`,
      query: { format: 'json' },
    },
    'GET /api/admin/videos/:videoId/captions': { path: `/api/admin/videos/${videoId}/captions` },
    'POST /api/admin/videos/:videoId/captions': {
      path: `/api/admin/videos/${videoId}/captions`,
      multipart: { language: 'fr', label: 'Français' },
    },
    'DELETE /api/admin/videos/:videoId/captions/:language': { skip: DELETE_SKIP },
    'GET /api/admin/videos/:videoId/captions/speech-draft': {
      path: `/api/admin/videos/${videoId}/captions/speech-draft`,
      query: { format: 'json' },
    },
    // The scan video has no speech cues: answers 404 whatever the body, changing nothing.
    'POST /api/admin/videos/:videoId/captions/speech-draft/publish': {
      path: `/api/admin/videos/${videoId}/captions/speech-draft/publish`,
      body: { language: 'fr', label: 'Français' },
    },
    'GET /api/videos/:videoId/captions': { path: `/api/videos/${videoId}/captions` },
    'GET /api/videos/:videoId/captions/:language': { path: `/api/videos/${videoId}/captions/en` },
    'GET /api/videos/:videoId/notes': { path: `/api/videos/${videoId}/notes` },
    'POST /api/videos/:videoId/notes': {
      path: `/api/videos/${videoId}/notes`,
      body: { t: 1, text: 'Scan note' },
    },
    'PATCH /api/notes/:noteId': {
      skip: 'PATCH: wapiti sends no PATCH to a target (the authorization matrix and hostile tier send it)',
    },
    'DELETE /api/notes/:noteId': { skip: DELETE_SKIP },
    'GET /api/courses/:courseId/notes': { path: `/api/courses/${courseId}/notes`, query: { format: 'md' } },
    'GET /api/videos/:videoId/questions': { path: `/api/videos/${videoId}/questions` },
    'POST /api/videos/:videoId/questions': {
      path: `/api/videos/${videoId}/questions`,
      body: { t: 1, title: 'Scan question', text: 'Why?' },
    },
    'GET /api/questions/unread': { path: '/api/questions/unread' },
    'POST /api/questions/:questionId/me-too': { path: `/api/questions/${ids.unknownId}/me-too` },
    'POST /api/questions/:questionId/seen': { path: `/api/questions/${ids.unknownId}/seen` },
    'POST /api/questions/:questionId/answers': {
      path: `/api/questions/${ids.unknownId}/answers`,
      body: { text: 'Scan answer' },
    },
    'GET /api/questions/:questionId/frame.jpg': { path: `/api/questions/${ids.unknownId}/frame.jpg` },
    'POST /api/questions/:questionId/accept': {
      path: `/api/questions/${ids.unknownId}/accept`,
      body: { answerId: ids.unknownId },
    },
    'GET /api/admin/questions': { path: '/api/admin/questions', query: { status: 'open' } },
    'POST /api/admin/questions/:questionId/status': {
      path: `/api/admin/questions/${ids.unknownId}/status`,
      body: { status: 'closed' },
    },
    'GET /api/admin/videos/:videoId/learning': { path: `/api/admin/videos/${videoId}/learning` },
    'GET /api/admin/videos/:videoId/checkpoints': { path: `/api/admin/videos/${videoId}/checkpoints` },
    'POST /api/admin/videos/:videoId/checkpoints': {
      path: `/api/admin/videos/${videoId}/checkpoints`,
      body: { t: 1, kind: 'output', prompt: 'Scan prompt', answers: ['42'], required: false },
    },
    'PATCH /api/admin/checkpoints/:checkpointId': {
      skip: 'PATCH: wapiti sends no PATCH to a target (the authorization matrix and hostile tier send it)',
    },
    'DELETE /api/admin/checkpoints/:checkpointId': { skip: DELETE_SKIP },
    'GET /api/videos/:videoId/checkpoints': { path: `/api/videos/${videoId}/checkpoints` },
    'POST /api/checkpoints/:checkpointId/attempts': {
      path: `/api/checkpoints/${ids.unknownId}/attempts`,
      body: { answer: 'Scan answer' },
    },
    'GET /api/courses/:courseId/completion': { path: `/api/courses/${courseId}/completion` },
    'GET /api/search': { path: '/api/search', query: { q: 'hello' } },
    'GET /api/videos/:videoId/screen-text': { path: `/api/videos/${videoId}/screen-text`, query: { t: '5' } },
    'GET /api/videos/:videoId/frame': { path: `/api/videos/${videoId}/frame`, query: { t: '5' } },
    'GET /api/admin/search': { path: '/api/admin/search', query: { q: 'hello' } },
    'GET /api/admin/videos/:videoId/index': { path: `/api/admin/videos/${videoId}/index` },
    // An unknown video: the scanners reach the route and its parameter, and queue no OCR job.
    'POST /api/admin/videos/:videoId/index': { path: `/api/admin/videos/${ids.unknownId}/index` },
    'POST /api/playback': { path: '/api/playback', body: { videoId } },
    'GET /api/admin/trace/:code': { path: `/api/admin/trace/${ids.playbackCode}` },
    'POST /api/admin/trace-runs': {
      skip: 'each upload queues an ffmpeg job (minutes of CPU here); crafted inputs: src/server/media/crafted-inputs.int.test.ts',
    },
    'GET /api/admin/trace-runs': { path: '/api/admin/trace-runs' },
    'GET /api/admin/trace-runs/:runId': { path: `/api/admin/trace-runs/${ids.unknownId}` },
    // A class at the demo school's opening (the scan runs with OPEN_HOURS=always), a week out.
    'POST /api/admin/live-classes': {
      path: '/api/admin/live-classes',
      body: { courseId, title: 'Scan class', description: '', startsAt: `${day(7)}T10:30:00Z`, minutes: 30 },
    },
    'GET /api/admin/live-classes': { path: '/api/admin/live-classes' },
    'PATCH /api/admin/live-classes/:classId': {
      skip: 'PATCH: wapiti sends no PATCH to a target (the authorization matrix and hostile tier send it)',
    },
    'DELETE /api/admin/live-classes/:classId': { skip: DELETE_SKIP },
    'POST /api/admin/live-classes/:classId/key': { path: `/api/admin/live-classes/${ids.unknownId}/key` },
    'GET /api/admin/live-classes/:classId/attendance': {
      path: `/api/admin/live-classes/${ids.unknownId}/attendance`,
      query: { format: 'csv' },
    },
    'GET /api/courses/:courseId/live-classes': { path: `/api/courses/${courseId}/live-classes` },
    'GET /api/live-classes/:classId/calendar.ics': {
      path: `/api/live-classes/${ids.unknownId}/calendar.ics`,
    },
    'POST /api/live/rtmp/publish': {
      path: '/api/live/rtmp/publish',
      body: { name: 'scan-not-a-stream-key', addr: '127.0.0.1', app: 'live' },
    },
    'POST /api/live/rtmp/done': {
      path: '/api/live/rtmp/done',
      body: { name: 'scan-not-a-stream-key', addr: '127.0.0.1', app: 'live' },
    },
    'GET /api/admin/playback-health': { path: '/api/admin/playback-health' },
    'GET /metrics': { path: '/metrics' },
    'GET /api/admin/backups': { path: '/api/admin/backups', query: { summary: 'true' } },
    'POST /api/admin/backups': { skip: 'takes no input; each call starts a backup' },
    'GET /api/admin/backups/:runId': { path: `/api/admin/backups/${ids.unknownId}` },
    'GET /api/certificates': { path: '/api/certificates' },
    'GET /api/certificates/:certificateId/pdf': { path: `/api/certificates/${ids.unknownId}/pdf` },
    'GET /api/public/certificates/:serial': { path: '/api/public/certificates/LEC-0000-0000-0000' },
    'GET /credentials/status/:listId': { path: '/credentials/status/1' },
    'GET /api/admin/certificates': { path: '/api/admin/certificates' },
    'POST /api/admin/certificates/:certificateId/revoke': {
      path: `/api/admin/certificates/${ids.unknownId}/revoke`,
      body: { reason: 'Scan' },
    },
    'POST /api/admin/certificates/:certificateId/reissue': {
      path: `/api/admin/certificates/${ids.unknownId}/reissue`,
    },
    'GET /thumbnails/:file': { path: ids.thumbnail },
    'POST /stream/upload-chunk': {
      path: '/stream/upload-chunk',
      multipart: { fileName: 'scan.mp4', start: '0', size: '6' },
    },
    'GET /stream/upload-status': { path: '/stream/upload-status', query: { fileName: 'scan.mp4' } },
    'POST /stream/upload': {
      skip: 'its input is the filename header; wapiti and sqlmap (at these levels) inject into parameters and bodies',
    },
    'GET /stream/videos/:id/master.m3u8': { path: `/stream/videos/${videoId}/master.m3u8` },
    'GET /stream/videos/:id/:rendition/:file': { path: ids.childPlaylist },
    'GET /stream/videos/:id/keys/:period': { path: ids.keyLink },
    'GET /stream/videos/:id/poster.jpg': { path: `/stream/videos/${videoId}/poster.jpg` },
    'DELETE /stream/videos/:id': { skip: DELETE_SKIP },
    'GET /healthz': { path: '/healthz' },
    'GET /readyz': { path: '/readyz' },
  };
}

/** Whose run scans a route: public and viewer routes both, the others their own role's. */
function rolesOf(key: RouteKey): Role[] {
  const auth: string = routes[key].auth;
  if (auth === 'admin') return ['admin'];
  if (auth === 'student' || auth === 'student-reset') return ['student'];
  return ['student', 'admin'];
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function kindOf(value: unknown): FieldKind | undefined {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return 'string[]';
  return undefined;
}

/**
 * wapiti's start page for a role: each GET route a link (with its query), each POST route a form
 * (hidden inputs, so wapiti keeps the values), registered with the proxy for re-encoding as JSON.
 */
function startPage(role: Role, probes: Record<RouteKey, Probe>, forms: Map<string, JsonForm>): string {
  const items: string[] = [];
  for (const [key, probe] of Object.entries(probes) as [RouteKey, Probe][]) {
    if ('skip' in probe || !rolesOf(key).includes(role)) continue;
    const { method } = splitRouteKey(key);
    if (method === 'GET') {
      const href =
        probe.path + ('query' in probe && probe.query ? `?${new URLSearchParams(probe.query)}` : '');
      items.push(`<li><a href="${escapeHtml(href)}">${escapeHtml(key)}</a></li>`);
      continue;
    }
    const inputs: string[] = [];
    let enctype = '';
    if ('multipart' in probe) {
      enctype = ' enctype="multipart/form-data"';
      for (const [name, value] of Object.entries(probe.multipart))
        inputs.push(`<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`);
      inputs.push('<input type="file" name="file">');
    } else {
      const body = probe.body ?? {};
      const fields: Record<string, FieldKind> = {};
      for (const [name, value] of Object.entries(body)) {
        const kind = kindOf(value);
        if (!kind) continue;
        fields[name] = kind;
        const shown = Array.isArray(value) ? String(value[0] ?? '') : String(value);
        inputs.push(`<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(shown)}">`);
      }
      forms.set(probe.path, { template: body, fields });
    }
    items.push(
      `<li><form method="post" action="${escapeHtml(probe.path)}"${enctype}>${escapeHtml(key)} ${inputs.join('')}<input type="submit" value="send"></form></li>`,
    );
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Lectern scan: ${role}</title></head><body><ul>\n${items.join('\n')}\n</ul></body></html>`;
}

// ---------------------------------------------------------------------------------------------
// The tools

interface ToolRun {
  tool: 'wapiti' | 'sqlmap';
  role: Role;
  seconds: number;
  counts: RunCounts;
  /** Lectern's own 5xx count over the run, by "METHOD route". */
  /** Undefined when Lectern's metrics could not be read after the run. */
  serverErrors: Map<string, number> | undefined;
  findings: Record<Severity, number>;
  /** One line per finding, for the reader. */
  details: string[];
  /** Other things the tool reported (anomalies, warnings). */
  notes: string[];
  /** Tool processes the bench had to stop at its wall-clock cap. */
  capped: number;
  exitCodes: (number | null)[];
  /** The tool came to a verdict on everything it was given (a report; a verdict per sqlmap target). */
  completed: boolean;
}

const noFindings = (): Record<Severity, number> => ({ critical: 0, high: 0, medium: 0, low: 0, info: 0 });

/** Runs a tool to its end, or stops it at `capSeconds` or as soon as `lectern` is gone; its output goes to `logFile`. */
async function runTool(
  command: string,
  args: string[],
  options: { home: string; logFile: string; capSeconds: number; lectern: Lectern },
): Promise<{ code: number | null; output: string; capped: boolean }> {
  const child = spawn(command, args, {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: options.home, LANG: 'C.UTF-8', TERM: 'dumb' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d));
  child.stderr.on('data', (d: Buffer) => (output += d));
  let capped = false;
  const stop = () => {
    child.kill('SIGTERM');
    setTimeout(
      () => child.exitCode === null && child.signalCode === null && child.kill('SIGKILL'),
      5_000,
    ).unref();
  };
  const cap = setTimeout(() => {
    capped = true;
    stop();
  }, options.capSeconds * 1000);
  // Nothing left to scan: the process died (reported as such).
  const watch = setInterval(() => !options.lectern.alive() && stop(), 1_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  clearTimeout(cap);
  clearInterval(watch);
  await writeFile(options.logFile, output);
  return { code, output, capped };
}

const WAPITI_LEVELS: Record<string, Severity> = {
  '4': 'critical',
  '3': 'high',
  '2': 'medium',
  '1': 'low',
  '0': 'info',
};

async function wapiti(
  role: Role,
  cookie: string,
  proxy: ScanProxy,
  lectern: Lectern,
  work: string,
): Promise<ToolRun> {
  const dir = path.join(work, `wapiti-${role}`);
  await mkdir(dir);
  const report = path.join(dir, 'report.json');
  const endpoint = `${proxy.url}/__scan/endpoint/`;
  const args = [
    '-u', `${proxy.url}/`,
    '--scope', 'folder',
    '-s', `${proxy.url}/__scan/${role}.html`,
    '-p', `${proxy.url}/`,
    '-H', `Cookie: ${cookie}`,
    '-A', 'lectern-scan-bench (wapiti)',
    '-m', WAPITI_MODULES.join(','),
    // No -x: wapiti 3.0.4's exclusion patterns do not compile on Python 3.11 ("global flags not at
    // the start of the expression"); the start pages hold no sign-out instead.
    '--max-scan-time', String(CRAWL_SECONDS),
    '--max-attack-time', String(ATTACK_SECONDS),
    '-t', '10',
    '--external-endpoint', endpoint,
    '--internal-endpoint', endpoint,
    '--flush-session',
    '--store-session', path.join(dir, 'session'),
    '--store-config', path.join(dir, 'config'),
    '--no-bugreport',
    '-v', '1',
    '-f', 'json',
    '-o', report,
  ]; // prettier-ignore
  // Crawl, each module's attack time, and room for a module to finish the resource it is on.
  const capSeconds = CRAWL_SECONDS + WAPITI_MODULES.length * ATTACK_SECONDS + 120;
  const before = await serverErrorCounts(lectern);
  const counts = proxy.startRun(`wapiti ${role}`);
  const started = performance.now();
  const result = await runTool('wapiti', args, {
    home: dir,
    logFile: path.join(dir, 'output.txt'),
    capSeconds,
    lectern,
  });
  const seconds = (performance.now() - started) / 1000;
  proxy.endRun();
  const serverErrors = diffCounts(await serverErrorCounts(lectern), before);

  const findings = noFindings();
  const details: string[] = [];
  const notes: string[] = [];
  if (existsSync(report)) {
    type Entry = { level: number | string; method: string; path: string; parameter: string; info: string };
    const json = JSON.parse(await readFile(report, 'utf8')) as {
      vulnerabilities?: Record<string, Entry[]>;
      anomalies?: Record<string, Entry[]>;
    };
    for (const [category, entries] of Object.entries(json.vulnerabilities ?? {}))
      for (const e of entries) {
        const severity = WAPITI_LEVELS[String(e.level)] ?? 'info';
        findings[severity]++;
        details.push(
          `${severity}: ${category}: ${e.method} ${e.path}${e.parameter ? ` [${e.parameter}]` : ''}: ${e.info.split('\n')[0]}`,
        );
      }
    for (const [category, entries] of Object.entries(json.anomalies ?? {}))
      for (const e of entries)
        notes.push(
          `anomaly: ${category}: ${e.method} ${e.path}${e.parameter ? ` [${e.parameter}]` : ''}: ${e.info.split('\n')[0]}`,
        );
  } else {
    notes.push(
      `no report written (exit ${result.code}); see the tail of its output:\n${result.output.slice(-1500)}`,
    );
  }
  const stopped = result.output.match(/Max attack time was reached for module \w+/g) ?? [];
  if (stopped.length)
    notes.push(`stopped at --max-attack-time: ${stopped.map((s) => s.split(' ').pop()).join(', ')}`);
  if (/Max scan time was reached/.test(result.output)) notes.push('crawl stopped at --max-scan-time');
  // At -v 1 wapiti prints "[+] request" per resource crawled, then per resource each module attacks.
  const attacked = new Map<string, number>();
  let module = '(crawl)';
  for (const line of result.output.split('\n')) {
    const launched = /Launching module (\w+)/.exec(line);
    if (launched) module = launched[1]!;
    else if (line.startsWith('[+] ')) attacked.set(module, (attacked.get(module) ?? 0) + 1);
  }
  const crawled = attacked.get('(crawl)') ?? 0;
  const partial = [...attacked].filter(([m, n]) => m !== '(crawl)' && n < crawled && m !== 'permanentxss');
  notes.push(
    `${crawled} resources crawled (links and forms)` +
      (partial.length
        ? `; attacked before the time limit: ${partial.map(([m, n]) => `${m} ${n}`).join(', ')}`
        : ''),
  );
  return {
    tool: 'wapiti',
    role,
    seconds,
    counts,
    serverErrors,
    findings,
    details,
    notes,
    capped: result.capped ? 1 : 0,
    exitCodes: [result.code],
    completed: existsSync(report) && !result.capped,
  };
}

interface SqlmapTarget {
  name: string;
  path: string;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
  /** Answers sqlmap would otherwise stop at (a sign-in's 401 for wrong credentials). */
  ignoreCodes?: number[];
}

function sqlmapTargets(role: Role, probes: Record<RouteKey, Probe>): SqlmapTarget[] {
  const take = (key: RouteKey, extra: Partial<SqlmapTarget> = {}): SqlmapTarget => {
    const probe = probes[key];
    if ('skip' in probe || 'multipart' in probe) throw new Error(`${key} is not a JSON or query route here`);
    return { name: key, path: probe.path, query: probe.query, body: probe.body, ...extra };
  };
  return role === 'student'
    ? [
        take('POST /api/videos'),
        take('POST /api/progress'),
        // Level 3 also injects into User-Agent, which a playback session records.
        take('POST /api/playback'),
        take('POST /api/signin', { ignoreCodes: [401] }),
        take('POST /api/password/forgot'),
      ]
    : [
        take('GET /api/admin/students'),
        take('GET /api/admin/course/accesslist'),
        take('POST /api/admin/students/dropdown'),
        take('POST /api/admin/video/grant'),
      ];
}

async function sqlmap(
  role: Role,
  cookie: string,
  targets: SqlmapTarget[],
  proxy: ScanProxy,
  lectern: Lectern,
  work: string,
): Promise<ToolRun> {
  const dir = path.join(work, `sqlmap-${role}`);
  await mkdir(dir);
  const before = await serverErrorCounts(lectern);
  const counts = proxy.startRun(`sqlmap ${role}`);
  const started = performance.now();
  const findings = noFindings();
  const details: string[] = [];
  const notes: string[] = [];
  const exitCodes: (number | null)[] = [];
  let capped = 0;
  let verdicts = 0;
  for (const [i, target] of targets.entries()) {
    if (!lectern.alive()) break;
    const url = `${proxy.url}${target.path}${target.query ? `?${new URLSearchParams(target.query)}` : ''}`;
    const args = [
      '-u', url,
      ...(target.body ? ['--data', JSON.stringify(target.body)] : []),
      '--cookie', cookie,
      '--proxy', proxy.url,
      '--batch',
      '--dbms', 'PostgreSQL',
      '--level', String(SQLMAP_LEVEL),
      '--risk', String(SQLMAP_RISK),
      '--timeout', '10',
      '--retries', '1',
      '--time-sec', '3',
      '--user-agent', 'lectern-scan-bench (sqlmap)',
      '--output-dir', path.join(dir, `out-${i}`),
      '--disable-coloring',
      ...(target.ignoreCodes ? ['--ignore-code', target.ignoreCodes.join(',')] : []),
    ]; // prettier-ignore
    const result = await runTool('sqlmap', args, {
      home: dir,
      logFile: path.join(dir, `output-${i}.txt`),
      capSeconds: SQLMAP_SECONDS,
      lectern,
    });
    exitCodes.push(result.code);
    if (result.capped) {
      capped++;
      notes.push(`${target.name}: stopped at the bench's ${SQLMAP_SECONDS} s cap`);
    }
    const out = result.output;
    const injectable = out.includes('sqlmap identified the following injection point');
    if (injectable) {
      verdicts++;
      const points = [...out.matchAll(/^Parameter: (.+)$/gm)].map((m) => m[1]!);
      findings.critical += points.length || 1;
      for (const p of points.length ? points : ['?'])
        details.push(`critical: SQL injection: ${target.name} [${p}]`);
    } else if (/all tested parameters do not appear to be injectable/.test(out)) {
      verdicts++;
      notes.push(`${target.name}: all tested parameters do not appear to be injectable`);
    } else {
      const critical = out.match(/^\[[\d:]+\] \[CRITICAL\] .*$/gm) ?? [];
      notes.push(`${target.name}: no verdict (${critical.join(' / ') || `exit ${result.code}`})`);
    }
    const codes = /HTTP error codes detected during run:\s*\n([^\n]+)/.exec(out)?.[1];
    if (codes) notes.push(`${target.name}: HTTP error codes sqlmap saw: ${codes.trim()}`);
  }
  const seconds = (performance.now() - started) / 1000;
  proxy.endRun();
  const serverErrors = diffCounts(await serverErrorCounts(lectern), before);
  return {
    tool: 'sqlmap',
    role,
    seconds,
    counts,
    serverErrors,
    findings,
    details,
    notes,
    capped,
    exitCodes,
    completed: verdicts === targets.length && capped === 0,
  };
}

// ---------------------------------------------------------------------------------------------
// The report

function statusSummary(counts: RunCounts): string {
  const classes = new Map<string, number>();
  for (const [status, n] of counts.statuses) {
    const key = status === 429 ? '429' : `${Math.floor(status / 100)}xx`;
    classes.set(key, (classes.get(key) ?? 0) + n);
  }
  return ['2xx', '3xx', '4xx', '429', '5xx']
    .filter((k) => classes.has(k))
    .map((k) => `${k} ${classes.get(k)}`)
    .join(', ');
}

const proxy5xx = (counts: RunCounts) =>
  [...counts.statuses].filter(([status]) => status >= 500).reduce((n, [, c]) => n + c, 0);

function printTable(runs: ToolRun[], alive: boolean): void {
  const header = [
    'tool',
    'role',
    'requests',
    'crit',
    'high',
    'med',
    'low',
    'info',
    '5xx (server)',
    '5xx (proxy)',
    'time',
    'process alive',
  ];
  const rows = runs.map((r) => [
    r.tool,
    r.role,
    String(r.counts.requests),
    ...SEVERITIES.map((s) => String(r.findings[s])),
    r.serverErrors ? String(total(r.serverErrors)) : '?',
    String(proxy5xx(r.counts)),
    `${r.seconds.toFixed(0)} s`,
    alive ? 'yes' : 'NO',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const format = (cells: string[]) =>
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(`\n${format(header)}`);
  for (const row of rows) console.log(format(row));
}

// ---------------------------------------------------------------------------------------------

function haveTool(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export async function run(): Promise<boolean> {
  const missing = ['wapiti', 'sqlmap'].filter((t) => !haveTool(t));
  if (missing.length) {
    console.log(`Missing ${missing.join(' and ')}: apt-get install -y wapiti sqlmap (Debian packages).`);
    return false;
  }
  const version = (cmd: string, args: string[]) => {
    try {
      return /\d+\.\d+(\.\d+)?/.exec(
        execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }),
      )?.[0];
    } catch {
      return undefined;
    }
  };
  console.log(
    `wapiti ${version('wapiti', ['--version']) ?? '?'}, sqlmap ${version('sqlmap', ['--version']) ?? '?'}; machine load ${loadavg()[0]!.toFixed(2)} (1 min)`,
  );

  const work = await mkdtemp(path.join(tmpdir(), 'lectern-bench-scan-'));
  let lectern: Lectern | undefined;
  let proxy: ScanProxy | undefined;
  const started = performance.now();
  try {
    lectern = await startLectern(work);
    const admin = await signedIn(lectern.url, 'admin', 'admin');
    await waitForDemoLectures(admin);
    const studentName = await resetDemoStudent(lectern);
    const student = await signedIn(lectern.url, 'student', studentName);
    const ids = await collectIds(student, admin);
    console.log(
      `Lectern (pid ${lectern.pid}) at ${lectern.url}: demo lectures packaged, admin and student signed in (${((performance.now() - started) / 1000).toFixed(0)} s)`,
    );

    proxy = await new ScanProxy({ host: '127.0.0.1', port: lectern.port }, SPREAD_ROUTES).start();
    const probes = plan(ids);
    for (const role of ['student', 'admin'] as const)
      proxy.pages.set(`/__scan/${role}.html`, startPage(role, probes, proxy.forms));
    const skipped = (Object.entries(probes) as [RouteKey, Probe][]).filter(([, p]) => 'skip' in p);
    console.log(
      `Route table: ${Object.keys(probes).length} routes, ${Object.keys(probes).length - skipped.length} scanned, ${skipped.length} left out:`,
    );
    for (const [key, p] of skipped) console.log(`  ${key}: ${(p as { skip: string }).skip}`);

    const runs: ToolRun[] = [];
    const clients: Record<Role, TestClient> = { student, admin };
    for (const role of ['student', 'admin'] as const) {
      for (const tool of ['wapiti', 'sqlmap'] as const) {
        if (!(await sessionValid(clients[role], role))) {
          console.log(`  (the ${role}'s session ended during the previous run: signing in again)`);
          clients[role] = await signedIn(lectern.url, role, role === 'admin' ? 'admin' : studentName);
        }
        const cookie = cookieHeader(clients[role]);
        console.log(`\n${tool} as the ${role}…`);
        const result =
          tool === 'wapiti'
            ? await wapiti(role, cookie, proxy, lectern, work)
            : await sqlmap(role, cookie, sqlmapTargets(role, probes), proxy, lectern, work);
        runs.push(result);
        console.log(
          `  ${result.counts.requests} requests in ${result.seconds.toFixed(0)} s (${statusSummary(result.counts)})` +
            `${result.counts.reencoded ? `, ${result.counts.reencoded} form posts re-encoded as JSON` : ''}` +
            `${result.counts.spread ? `, ${result.counts.spread} from rotating loopback addresses` : ''}` +
            `${result.counts.upstreamFailures ? `, ${result.counts.upstreamFailures} WITHOUT AN ANSWER` : ''}` +
            `${result.counts.unparsed ? `, ${result.counts.unparsed} refused by the proxy's HTTP parser (not forwarded)` : ''}` +
            `; exit ${result.exitCodes.map((c) => c ?? 'killed').join(',')}${result.capped ? `; ${result.capped} stopped at the bench's cap` : ''}`,
        );
        if (result.counts.limited.size)
          console.log(
            `  429 (a limit held): ${[...result.counts.limited].map(([p, n]) => `${p} x${n}`).join(', ')}`,
          );
        for (const line of result.details) console.log(`  ${line}`);
        for (const line of result.notes) console.log(`  ${line}`);
        for (const [route, n] of result.serverErrors ?? []) console.log(`  5xx from Lectern: ${route} x${n}`);
        for (const e of result.counts.serverErrors)
          console.log(`  5xx at the proxy: ${e.status} ${e.method} ${e.path}`);
        if (result.counts.offTarget.length)
          console.log(
            `  refused (off target): ${[...new Set(result.counts.offTarget)].slice(0, 10).join(', ')}`,
          );
        if (!lectern.alive()) break;
      }
      if (!lectern.alive()) break;
    }

    const time = await fetch(`${lectern.url}/api/time`).then(
      (r) => r.status,
      () => 0,
    );
    const alive = lectern.alive() && time === 200;
    const memory = memoryMB(lectern.pid);
    printTable(runs, alive);
    const serverTotal = runs.reduce((n, r) => n + total(r.serverErrors), 0);
    const proxyTotal = runs.reduce((n, r) => n + proxy5xx(r.counts), 0);
    const errorLines = lectern.errorLines();
    console.log(
      `\nLectern after the scans: ${alive ? 'running, GET /api/time 200' : lectern.alive() ? `RUNNING BUT GET /api/time ${time || 'unanswered'}` : `NOT RUNNING (${lectern.ended()})`}` +
        `${memory ? `, RSS ${memory.rss.toFixed(0)} MB (peak ${memory.peak.toFixed(0)} MB)` : ''}; ` +
        `${errorLines.length} error log line(s)${errorLines.length ? `: ${[...new Set(errorLines)].slice(0, 5).join(' | ')}` : ''}; ` +
        `SSRF endpoint hits: ${proxy.ssrfHits.length}. Whole bench ${((performance.now() - started) / 1000).toFixed(0)} s.`,
    );
    const unfinished = runs
      .filter((r) => !r.completed)
      .map((r) => `${r.tool} as the ${r.role} did not finish`);
    const misses = [
      !alive && 'the process did not survive',
      serverTotal + proxyTotal > 0 && `${Math.max(serverTotal, proxyTotal)} 5xx answer(s)`,
      runs.length < 4 && 'the runs stopped early',
      ...unfinished,
    ].filter(Boolean);
    console.log(
      misses.length
        ? `Targets missed: ${misses.join(', ')}.`
        : 'Targets: no 5xx, process alive, every scan finished: met.',
    );
    if (!alive) console.log(`Lectern's output, last 3,000 characters:\n${lectern.output().slice(-3000)}`);
    return misses.length === 0;
  } finally {
    await proxy?.stop();
    await lectern?.stop();
    if (process.env.BENCH_SCAN_KEEP) {
      await cp(work, path.resolve(process.env.BENCH_SCAN_KEEP), { recursive: true });
      console.log(`Reports and tool output kept in ${path.resolve(process.env.BENCH_SCAN_KEEP)}`);
    }
    await rm(work, { recursive: true, force: true });
  }
}

// Standalone: node --import tsx bench/scan.ts
runIfMain(import.meta.url, run);
