import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { AdminLiveClass } from '../../src/contract/live';
import { liveClasses } from '../../src/server/db/schema';
import { createCourseVia, enrolVia, scheduleClassVia } from './course-fixtures';
import { get } from './delivery';
import type { TestClient } from './http-client';
import { NGINX_PATH, nginxMain } from './nginx';
import { OPEN_TIME, suiteServer, type TestServer } from './test-server';

/**
 * ffmpeg as an instructor's encoder publishing a lavfi picture (`picture`, e.g.
 * `testsrc2=size=640x480:rate=15`) and a tone in real time for `seconds`: H.264 with a keyframe
 * every 2 s at 15 fps, AAC; MPEG-TS to an `srt://` address, FLV to an `rtmp://` one
 * (docs/LIVE.md "Streaming from OBS").
 */
export function liveEncoder(url: string, picture: string, seconds: number): ChildProcess {
  return spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-re'],
      ...['-f', 'lavfi', '-i', picture],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100'],
      ...['-t', String(seconds), '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '30'],
      ...['-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '64k'],
      ...['-f', url.startsWith('rtmp') ? 'flv' : 'mpegts', url],
    ],
    { stdio: 'ignore' },
  );
}

/** The test picture (640x480) sent to `url` for `seconds`; resolves with ffmpeg's exit code. */
export function encode(url: string, seconds: number): Promise<number> {
  const child = liveEncoder(url, 'testsrc2=size=640x480:rate=15', seconds);
  return new Promise((resolve) => child.on('close', (code) => resolve(code ?? -1)));
}

/** A port (or the start of a range) no other suite is likely to take at the same moment. */
export const randomPort = () => 20_000 + Math.floor(Math.random() * 20_000);

/** A suite's server (PGlite) with SRT listeners on five ports of their own, and `env` on top. */
export function liveSuiteServer(
  env: Record<string, string>,
  engine: 'pglite' | 'postgres' = 'pglite',
): TestServer {
  const base = randomPort();
  return suiteServer({ engine, env: { LIVE_SRT_PORTS: `${base}-${base + 4}`, ...env } });
}

/**
 * A course with one enrolled student and a class of it starting at OPEN_TIME (an hour long, unless
 * `fields` say otherwise), made through the API as staff would: answers the student's client and the class as staff see it.
 */
export async function scheduledClass(
  server: TestServer,
  admin: TestClient,
  title: string,
  fields: Record<string, unknown> = {},
) {
  const course = await createCourseVia(admin);
  const { client: student, student: s } = await server.studentClient();
  await enrolVia(admin, course._id, [s.id]);
  const created = await scheduleClassVia(admin, course._id, OPEN_TIME, { title, ...fields });
  if (created.status !== 201) throw new Error(`scheduling answered ${created.status}`);
  return { course, student, live: created.body as AdminLiveClass };
}

/** Resolves once the class has ended (its grace passed, or its time is up). */
export function classEnded(server: TestServer, classId: string, timeoutMs = 30_000) {
  return until(
    'the class to end',
    async () => {
      const [row] = await server.ctx.db.select().from(liveClasses).where(eq(liveClasses.id, classId));
      return row?.status === 'ended';
    },
    timeoutMs,
  );
}

/**
 * The live master playlist once it lists both rungs of the test picture: the copied 640x480 and the
 * 360p (each rung appears with its first segment, not always in the same step).
 */
export function bothRungs(master: string, session: string | undefined, timeoutMs?: number): Promise<string> {
  return until(
    'the live master playlist with both rungs',
    async () => {
      const res = await get(master, session);
      const text = res.status === 200 && (await res.text());
      return text && text.includes('RESOLUTION=640x480') && text.includes('RESOLUTION=480x360') && text;
    },
    timeoutMs,
  );
}

/** Polls `probe` every 200 ms until it answers something truthy. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined | false>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** nginx's main configuration around `blocks` (rtmp, stream) in `dir`, at notice (no stream names). */
const mainConfig = (dir: string, blocks: string, modules: string[]) =>
  `${nginxMain(dir, { errorLevel: 'notice', connections: 256, modules })}\n${blocks}\n`;

/** `nginx -t` over `blocks` in a main configuration: resolves with its exit code and output. */
export async function nginxTest(blocks: string, modules: string[]) {
  const dir = await mkdtemp(path.join(tmpdir(), 'lectern-nginx-t-'));
  const file = path.join(dir, 'nginx.conf');
  await writeFile(file, mainConfig(dir, blocks, modules));
  const child = spawn(NGINX_PATH, ['-t', '-p', dir, '-c', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? -1)));
  await rm(dir, { recursive: true, force: true });
  return { code, output };
}

/** A throwaway nginx running `blocks` (its rtmp block listening on `port`); `stop()` ends it. */
export async function startNginxMain(blocks: string, port: number, modules = ['rtmp']) {
  const dir = await mkdtemp(path.join(tmpdir(), 'lectern-nginx-rtmp-'));
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, 'nginx.conf');
  await writeFile(file, mainConfig(dir, blocks, modules));
  const child: ChildProcess = spawn(NGINX_PATH, ['-p', dir, '-c', file], { stdio: 'ignore' });
  await until('nginx to listen', async () => {
    if (child.exitCode !== null) throw new Error(`nginx exited ${child.exitCode}`);
    return new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => (socket.destroy(), resolve(true)));
      socket.on('error', () => resolve(false));
    });
  });
  return {
    errorLog: path.join(dir, 'error.log'),
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGQUIT');
        await new Promise((r) => child.once('exit', r));
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
