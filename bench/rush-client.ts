/**
 * Viewers for the evening-rush benchmark, run as their own process so they never share the server's
 * event loop. Each viewer is one student's browser tab: sign in, dashboard (session and time gates,
 * course list), course page (roll number, video list, posters), then the player, modelled on hls.js
 * (maxBufferLength 30 s): master playlist with the cookie, the top rendition's playlist, the key, and
 * segments whenever less than 30 s is buffered, so one every ~6 s once the buffer is full; progress
 * saved every 10 s, the time gate every 60 s; next lecture at the end of one. Prints one JSON line.
 *
 *   node --import tsx bench/rush-client.ts '{"port":3000,"courseId":"…","students":[…],"rampMs":60000,"sustainMs":120000}'
 */
import { Agent, request } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { runChildMain } from '../test/support/child-main';

export interface RushClientOptions {
  port: number;
  courseId: string;
  students: { username: string; password: string }[];
  /** Sign-ins are spread evenly over this long. */
  rampMs: number;
  /** Everyone keeps watching this long after the last sign-in. */
  sustainMs: number;
}

export interface KindStats {
  count: number;
  errors: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export interface RushClientResult {
  kinds: Record<string, KindStats>;
  /** Viewers watching (first segment of the evening in, still in the player), sampled every second from 5 s after the ramp. */
  sustainedMin: number;
  sustainedMean: number;
  /** Viewers that ever started playing. */
  started: number;
  /** Times a viewer's playhead caught up with its buffer, and the seconds spent waiting. */
  stalls: number;
  stalledSeconds: number;
  segmentMB: number;
  errorSamples: string[];
  clientCpuSeconds: number;
  clientLoopDelayP99Ms: number;
}

/** Time the last viewer to sign in has to reach its first segment before viewers are counted. */
const START_GRACE_MS = 5_000;
const BUFFER_AHEAD_S = 30;
const PROGRESS_EVERY_MS = 10_000;
const TIME_EVERY_MS = 60_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

interface Reply {
  status: number;
  body: Buffer;
  setCookie: string[];
}

class Recorder {
  readonly latencies = new Map<string, number[]>();
  readonly errors = new Map<string, number>();
  readonly errorSamples: string[] = [];
  segmentBytes = 0;

  record(kind: string, ms: number, ok: boolean, detail: string) {
    let list = this.latencies.get(kind);
    if (!list) this.latencies.set(kind, (list = []));
    list.push(ms);
    if (!ok) {
      this.errors.set(kind, (this.errors.get(kind) ?? 0) + 1);
      if (this.errorSamples.length < 20) this.errorSamples.push(`${kind}: ${detail}`);
    }
  }

  summary(): Record<string, KindStats> {
    const out: Record<string, KindStats> = {};
    for (const [kind, list] of this.latencies) {
      const sorted = Float64Array.from(list).sort();
      const at = (p: number) =>
        sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? 0;
      out[kind] = {
        count: sorted.length,
        errors: this.errors.get(kind) ?? 0,
        p50: at(0.5),
        p95: at(0.95),
        p99: at(0.99),
        max: sorted.at(-1) ?? 0,
      };
    }
    return out;
  }
}

/** One browser's connections to the server and its session cookie. */
class Browser {
  // Idle connections are dropped after 30 s, before the server's keep-alive timeout (72 s) closes them under a
  // request (a browser retries such a request; this client would count it as an error).
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 6, timeout: 30_000 });
  cookie = '';

  constructor(
    private readonly port: number,
    private readonly recorder: Recorder,
  ) {}

  /** Calls still in flight, so closing the tab waits for a progress save fired just before. */
  private readonly pending = new Set<Promise<Reply>>();

  call(kind: string, method: string, path: string, json?: unknown): Promise<Reply> {
    const reply = this.send(kind, method, path, json);
    this.pending.add(reply);
    void reply.finally(() => this.pending.delete(reply));
    return reply;
  }

  private send(kind: string, method: string, path: string, json?: unknown): Promise<Reply> {
    const body = json === undefined ? undefined : Buffer.from(JSON.stringify(json));
    const headers: Record<string, string | number> = { 'accept-encoding': 'gzip' };
    if (this.cookie) headers.cookie = this.cookie;
    if (body) Object.assign(headers, { 'content-type': 'application/json', 'content-length': body.length });
    const started = performance.now();
    return new Promise((resolve) => {
      const req = request(
        { host: '127.0.0.1', port: this.port, method, path, agent: this.agent, headers },
        (res) => {
          const chunks: Buffer[] = [];
          let bytes = 0;
          res.on('data', (c: Buffer) => {
            bytes += c.length;
            if (kind !== 'segment') chunks.push(c);
          });
          res.on('end', () => {
            (req.socket as unknown as { lastUsed?: number }).lastUsed = performance.now();
            const status = res.statusCode ?? 0;
            const ok = status >= 200 && status < 300;
            this.recorder.record(
              kind,
              performance.now() - started,
              ok,
              `${status} ${method} ${path.split('?')[0]} ${Buffer.concat(chunks).toString().slice(0, 120)}`,
            );
            if (kind === 'segment') this.recorder.segmentBytes += bytes;
            resolve({
              status,
              body: Buffer.concat(chunks),
              setCookie: ([] as string[]).concat(res.headers['set-cookie'] ?? []),
            });
          });
          res.on('error', () => {});
        },
      );
      req.on('error', (error) => {
        this.recorder.record(
          kind,
          performance.now() - started,
          false,
          `${method} ${path.split('?')[0]} ${error.message} (reused socket: ${req.reusedSocket}, idle ${(performance.now() - ((req.socket as unknown as { lastUsed?: number }).lastUsed ?? NaN)).toFixed(0)} ms, after ${(performance.now() - started).toFixed(0)} ms)`,
        );
        resolve({ status: 0, body: Buffer.alloc(0), setCookie: [] });
      });
      req.end(body);
    });
  }

  async close() {
    await Promise.all(this.pending);
    this.agent.destroy();
  }
}

const json = <T>(reply: Reply): T | undefined => {
  try {
    return JSON.parse(reply.body.toString()) as T;
  } catch {
    return undefined;
  }
};

interface Playlist {
  key?: string;
  segments: { uri: string; seconds: number }[];
}

function parseChild(text: string, base: URL): Playlist {
  const out: Playlist = { segments: [] };
  let seconds = 0;
  for (const line of text.split('\n')) {
    const key = /^#EXT-X-KEY:.*URI="([^"]+)"/.exec(line);
    if (key) out.key = new URL(key[1]!, base).pathname + new URL(key[1]!, base).search;
    const inf = /^#EXTINF:([\d.]+)/.exec(line);
    if (inf) seconds = Number(inf[1]);
    if (line && !line.startsWith('#')) {
      const u = new URL(line, base);
      out.segments.push({ uri: u.pathname + u.search, seconds });
    }
  }
  return out;
}

export async function rushClient(o: RushClientOptions): Promise<RushClientResult> {
  const recorder = new Recorder();
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const cpuBefore = process.cpuUsage();
  const t0 = performance.now();
  const endAt = t0 + o.rampMs + o.sustainMs;
  const running = () => performance.now() < endAt;
  let playing = 0;
  let started = 0;
  let stalls = 0;
  let stalledSeconds = 0;
  const sustained: number[] = [];
  const sampler = setInterval(() => {
    const now = performance.now();
    // From 5 s after the ramp: the last viewer signs in at its end and needs a moment (sign-in,
    // dashboard, course page, first segment) before it counts as watching.
    if (now > t0 + o.rampMs + START_GRACE_MS && now < endAt) sustained.push(playing);
  }, 1000);

  async function play(
    browser: Browser,
    video: { _id: string; url: string },
    onTick: (position: number) => void,
    onPlaying: () => void,
  ) {
    const masterUrl = new URL(video.url, `http://127.0.0.1:${o.port}`);
    const master = await browser.call('master playlist', 'GET', masterUrl.pathname);
    if (master.status !== 200) return sleep(2000);
    const top = master.body
      .toString()
      .split('\n')
      .find((l) => l && !l.startsWith('#'));
    if (!top) return;
    const childUrl = new URL(top, masterUrl);
    const child = await browser.call('child playlist', 'GET', childUrl.pathname + childUrl.search);
    if (child.status !== 200) return sleep(2000);
    const playlist = parseChild(child.body.toString(), childUrl);
    if (playlist.key && (await browser.call('key', 'GET', playlist.key)).status !== 200) return sleep(2000);
    // Playback clock: the playhead moves in real time once the first segment is in, and waits (a
    // stall) whenever it reaches the end of what is buffered.
    let buffered = 0;
    let playStart: number | undefined;
    let stalled = 0;
    const position = () =>
      playStart === undefined ? 0 : Math.min(buffered, (performance.now() - playStart) / 1000 - stalled);
    const ticker = setInterval(() => onTick(position()), 1000);
    try {
      for (const segment of playlist.segments) {
        if (!running()) return;
        while (playStart !== undefined && buffered - position() >= BUFFER_AHEAD_S && running())
          await sleep(250);
        let reply = await browser.call('segment', 'GET', segment.uri);
        if (reply.status !== 200)
          reply = await sleep(1000).then(() => browser.call('segment', 'GET', segment.uri));
        if (playStart === undefined) {
          playStart = performance.now();
          onPlaying();
        } else {
          const behind = (performance.now() - playStart) / 1000 - stalled - buffered;
          if (behind > 0) {
            stalls++;
            stalledSeconds += behind;
            stalled += behind;
          }
        }
        buffered += segment.seconds;
      }
      while (running() && position() < buffered - 0.05) await sleep(250); // play out what is buffered
    } finally {
      clearInterval(ticker);
    }
  }

  async function viewer(index: number) {
    await sleep((index * o.rampMs) / o.students.length);
    const student = o.students[index]!;
    const browser = new Browser(o.port, recorder);
    let watching = false;
    const onPlaying = () => {
      if (watching) return;
      watching = true;
      playing++;
      started++;
    };
    try {
      const signIn = await browser.call('sign-in', 'POST', '/api/signin', {
        username: student.username,
        password: student.password,
      });
      const token = signIn.setCookie.find((c) => c.startsWith('token='));
      if (!token) return;
      browser.cookie = token.split(';')[0]!;
      // Dashboard: the gates, then the course list.
      await Promise.all([
        browser.call('auth check', 'GET', '/api/auth/check'),
        browser.call('time', 'GET', '/api/time'),
      ]);
      await browser.call('courses', 'GET', '/api/courses');
      // Course page.
      const [, list] = await Promise.all([
        browser.call('rollno', 'POST', '/api/rollno', { courseId: o.courseId }),
        browser.call('videos', 'POST', '/api/videos', { courseId: o.courseId }),
      ]);
      const videos = json<{ videos: { _id: string; url: string; thumbnail: string }[] }>(list)?.videos ?? [];
      await Promise.all(videos.map((v) => browser.call('poster', 'GET', v.thumbnail)));
      if (!videos.length) return;
      let current = { videoId: videos[0]!._id, position: 0, lastSaved: performance.now() };
      let lastTime = performance.now();
      let saving = false;
      const onTick = (position: number) => {
        current.position = position;
        const now = performance.now();
        if (now - current.lastSaved >= PROGRESS_EVERY_MS && !saving) {
          current.lastSaved = now;
          saving = true;
          const p = Math.floor(position);
          void browser
            .call('progress', 'POST', '/api/progress', { videoId: current.videoId, position: p, watched: p })
            .finally(() => (saving = false));
        }
        if (now - lastTime >= TIME_EVERY_MS) {
          lastTime = now;
          void browser.call('time', 'GET', '/api/time');
        }
      };
      for (let i = 0; running(); i++) {
        const video = videos[i % videos.length]!;
        current = { videoId: video._id, position: 0, lastSaved: performance.now() };
        await play(browser, video, onTick, onPlaying);
      }
    } finally {
      if (watching) playing--;
      await browser.close();
    }
  }

  await Promise.all(o.students.map((_, i) => viewer(i)));
  clearInterval(sampler);
  loopDelay.disable();
  const cpu = process.cpuUsage(cpuBefore);
  return {
    kinds: recorder.summary(),
    sustainedMin: sustained.length ? Math.min(...sustained) : 0,
    sustainedMean: sustained.length ? sustained.reduce((a, b) => a + b, 0) / sustained.length : 0,
    started,
    stalls,
    stalledSeconds,
    segmentMB: recorder.segmentBytes / 1e6,
    errorSamples: recorder.errorSamples,
    clientCpuSeconds: (cpu.user + cpu.system) / 1e6,
    clientLoopDelayP99Ms: loopDelay.percentile(99) / 1e6,
  };
}

runChildMain(import.meta.url, rushClient);
