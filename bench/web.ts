/**
 * Web benchmark (issue 5):
 * - gzip size of the JavaScript needed to render `/` (the entry chunk, the login route and their
 *   static imports; target under 150 KB), what `/` loads after it renders (the toast container),
 *   and the same for the course player route, with hls.js reported on its own (only loaded where
 *   the browser has no native HLS);
 * - time from the click on a video's intro to its first frame drawn on the canvas, in headless
 *   Chromium against the built server on localhost, with native HLS and with hls.js (target under
 *   1 s), each in a fresh browser context (cold HTTP cache).
 *
 *   npm run bench -- web         BENCH_WEB_RUNS=7 (runs per engine)   BENCH_WEB_NO_BUILD=1 (use dist as is)
 *
 * Standalone: node --import tsx bench/web.ts
 */
import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser } from '@playwright/test';
import { startLectern } from '../e2e/lectern';
import { activateStudent, AdminApi } from '../e2e/student-setup';
import { runIfMain } from '../test/support/child-main';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const DIST = path.join(ROOT, 'dist/web');
const KB = 1024;
const ROOT_TARGET_KB = 150;
const FIRST_FRAME_TARGET_MS = 1_000;
const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 7);

interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
  isEntry?: boolean;
}
type Manifest = Record<string, ManifestChunk>;

const gzipSize = (file: string) => gzipSync(readFileSync(path.join(DIST, file)), { level: 9 }).length;

/** The chunk files `keys` need before they run: themselves and their static imports, transitively. */
function staticClosure(manifest: Manifest, keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const dep of manifest[key]?.imports ?? []) visit(dep);
  };
  keys.forEach(visit);
  return seen;
}

function sizeOf(manifest: Manifest, keys: Set<string>, without = new Set<string>()) {
  const parts = [...keys]
    .filter((k) => !without.has(k))
    .map((k) => ({ file: manifest[k]!.file, gz: gzipSize(manifest[k]!.file) }))
    .sort((a, b) => b.gz - a.gz);
  return { total: parts.reduce((sum, p) => sum + p.gz, 0), parts };
}

const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

/** Gzip sizes of what each route loads; returns whether `/` is within its target. */
function bundleFigures(): boolean {
  const manifest = JSON.parse(readFileSync(path.join(DIST, '.vite/manifest.json'), 'utf8')) as Manifest;
  const entry = Object.keys(manifest).find((k) => manifest[k]!.isEntry)!;
  const route = (file: string) => {
    const key = Object.keys(manifest).find((k) => k.endsWith(file));
    if (!key) throw new Error(`no chunk for ${file} in the manifest`);
    return key;
  };

  // A page loads with the layout routes above it (app/router.tsx).
  const rootKeys = staticClosure(manifest, [entry, route('student/LoginPage.tsx')]);
  const root = sizeOf(manifest, rootKeys);
  const later = sizeOf(manifest, staticClosure(manifest, [route('ui/Toaster.tsx')]), rootKeys);
  const playerKeys = staticClosure(manifest, [
    entry,
    route('student/StudentShell.tsx'),
    route('student/CoursePage.tsx'),
  ]);
  const player = sizeOf(manifest, playerKeys);
  const hlsKey = Object.keys(manifest).find((k) => k.includes('hls.js'));
  const hls = hlsKey ? gzipSize(manifest[hlsKey]!.file) : 0;
  const css = [...new Set([...rootKeys].flatMap((k) => manifest[k]!.css ?? []))].reduce(
    (s, f) => s + gzipSize(f),
    0,
  );

  console.log('JavaScript, gzip -9:');
  console.log(
    `  /  to render (entry + login route, static imports): ${kb(root.total)}  target < ${ROOT_TARGET_KB} KB`,
  );
  for (const p of root.parts) console.log(`       ${kb(p.gz).padStart(9)}  ${p.file}`);
  console.log(`  /  loaded after the first render (toast container): ${kb(later.total)}`);
  console.log(`  /course/:id (entry + course route, static imports): ${kb(player.total)}`);
  console.log(`      + hls.js light, only without native HLS: ${kb(hls)}`);
  console.log(`  CSS for /: ${kb(css)}`);
  return root.total < ROOT_TARGET_KB * KB;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/** Click-to-first-frame on the course page, `RUNS` times per engine; returns whether the medians meet the target. */
async function firstFrame(): Promise<boolean> {
  const lectern = await startLectern();
  let browser: Browser | undefined;
  const clipDir = await mkdtemp(path.join(tmpdir(), 'lectern-bench-web-'));
  try {
    const admin = await AdminApi.signIn(lectern);
    const clip = path.join(clipDir, 'lecture-720p.mp4');
    execSync(
      `ffmpeg -v error -y -f lavfi -i testsrc2=size=1280x720:rate=30:duration=30 -f lavfi -i sine=frequency=440:duration=30 ` +
        `-c:v libx264 -preset veryfast -pix_fmt yuv420p -g 60 -c:a aac -b:a 96k -shortest ${clip}`,
    );
    const course = await admin.createCourse({
      name: 'Bench course',
      description: 'First frame timing.',
      coursecode: 'BENCH',
    });
    const student = await admin.addStudent('BENCH-001', 'Bench Student');
    await admin.grantCourse(course._id, student.id, { days: 30 });
    await activateStudent(lectern, student, 'Bench@2026');
    const videoId = await admin.uploadVideo(clip, {
      title: 'A 720p lecture',
      description: '30 s of test pattern.',
      courseId: course._id,
      rollnos: [student.rollno],
    });

    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required'],
    });
    let ok = true;
    console.log(`Click to first drawn frame, 720p H.264, fresh browser context each run (${RUNS} runs):`);
    for (const engine of ['native', 'hls.js'] as const) {
      const times: number[] = [];
      let used = '';
      for (let i = 0; i < RUNS; i++) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        // A browser without native HLS, as Firefox and older Chromium are.
        if (engine === 'hls.js') {
          await context.addInitScript(() => {
            const original = HTMLMediaElement.prototype.canPlayType;
            HTMLMediaElement.prototype.canPlayType = function (type: string) {
              return /mpegurl/i.test(type) ? '' : original.call(this, type);
            };
          });
        }
        const signIn = await context.request.post(`${lectern.url}/api/signin`, {
          data: { username: student.username, password: student.password },
        });
        if (!signIn.ok()) throw new Error(`bench sign-in failed: ${signIn.status()}`);
        const page = await context.newPage();
        await page.goto(`${lectern.url}/course/${course._id}?video=${videoId}`);
        await page.getByRole('button', { name: /^Play A 720p lecture/ }).click();
        await page.waitForFunction(
          () => performance.getEntriesByName('lectern:first-frame').length > 0,
          null,
          {
            timeout: 20_000,
          },
        );
        const ms = await page.evaluate(
          () =>
            performance.getEntriesByName('lectern:first-frame')[0]!.startTime -
            performance.getEntriesByName('lectern:play')[0]!.startTime,
        );
        used = (await page.getByRole('region', { name: /Video player/ }).getAttribute('data-engine')) ?? '?';
        times.push(ms);
        await context.close();
      }
      const mid = median(times);
      ok &&= mid < FIRST_FRAME_TARGET_MS;
      console.log(
        `  ${engine.padEnd(7)} (player reported ${used}): median ${mid.toFixed(0)} ms, min ${Math.min(...times).toFixed(0)} ms, ` +
          `max ${Math.max(...times).toFixed(0)} ms  target < ${FIRST_FRAME_TARGET_MS} ms`,
      );
    }
    return ok;
  } finally {
    await browser?.close();
    await lectern.stop();
    await rm(clipDir, { recursive: true, force: true });
  }
}

export async function run(): Promise<boolean> {
  if (!process.env.BENCH_WEB_NO_BUILD) {
    console.log('Building (npm run build)…');
    execSync('npm run build', { cwd: ROOT, stdio: 'ignore' });
  }
  const bundleOk = bundleFigures();
  const frameOk = await firstFrame();
  return bundleOk && frameOk;
}

// Standalone: node --import tsx bench/web.ts
runIfMain(import.meta.url, run);
