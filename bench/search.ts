/**
 * `npm run bench -- search`: issue 29's figures (docs/SEARCH.md), side by side in one run.
 *
 * 1. Screen text accuracy: a generated lecture (1280x720 H.264) whose slides carry known text (a
 *    7-line code snippet in a dark editor theme, light on #1e1e1e, and in a light one, dark on white,
 *    at 12, 16 and 24 px in DejaVu Sans Mono, plus a prose slide in DejaVu Sans), packaged by Lectern
 *    (`writeRendition`: the remux and the ladder's rungs). The index job's own frame selection
 *    (`extractFrames`, 60 s pieces, identical frames skipped) and OCR (`readImage`, its Tesseract
 *    options) read the source and the lowest rung (its segments joined, as the job reads a rung).
 *    Character accuracy = 1 - Levenshtein(ocr, truth) / length(truth), trailing spaces per line
 *    dropped, indentation kept. Target: >= 98% for code at 16 px and larger on the source.
 * 2. Speech word error rate through the pocketsphinx SPEECH_COMMAND (scripts/speech/pocketsphinx-vtt.sh)
 *    on Debian's `pocketsphinx-testdata` recordings (librivox, cards; `apt-get install
 *    pocketsphinx-testdata`, not in .ci/run: benches are not in CI), and on the lecture's espeak-ng
 *    voice; for the record, no target. Without the package it says so and keeps the espeak-ng row.
 * 3. Indexing cost: CPU seconds per hour of video for screen text and speech (the job's steps on the
 *    lecture), next to packaging's. Children's CPU from /proc/self/stat (cutime + cstime of reaped
 *    children) and /usr/bin/time (a script's own children included), Node's own from
 *    process.cpuUsage(); process.resourceUsage() is RUSAGE_SELF and counts no child (checked).
 * 4. Query latency: throwaway databases migrated by Lectern (PostgreSQL on BENCH_DATABASE_URL /
 *    TEST_DATABASE_URL, and PGlite), synthetic entries at real densities (a caption cue every 3 s, a
 *    screen-text entry every 20 s) for lectures of 90 minutes in 8 courses, one student enrolled in 3
 *    of them; 1,000 mixed queries through GET /api/search's path (watchableVideoIds, then
 *    searchIndex). Target: p95 < 50 ms on PostgreSQL. Index size per lecture-hour.
 *
 *   npm run bench -- search
 *   BENCH_SEARCH_HOLD=15              seconds each slide is shown (8 slides)
 *   BENCH_SEARCH_SLIDES=8             the first n slides only (a smoke run)
 *   BENCH_SEARCH_HOURS=2000           lecture-hours indexed on PostgreSQL
 *   BENCH_SEARCH_PGLITE_HOURS=200     lecture-hours indexed on PGlite (slower to seed in WASM)
 *   BENCH_SEARCH_QUERIES=1000         queries per engine
 *   BENCH_SEARCH_QUERY_SECONDS=45     at most this long per engine for the queries
 *   BENCH_ENGINES=postgres,pglite     which engines (postgres only with a URL)
 *   BENCH_SEARCH_RECORDINGS=2         the first n recordings of each testdata set (a smoke run)
 *   BENCH_SEARCH_SKIP=speech,query    sections to skip (ocr, speech, query)
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { readWebVtt } from '../src/contract/webvtt';
import { loadConfig } from '../src/server/config';
import type { Db } from '../src/server/db/client';
import { createMediaTools } from '../src/server/storage/ffmpeg';
import { audioPlanFor, ladderFor, planFor, writeRendition } from '../src/server/media/packaging/hls';
import { openRuntime } from '../src/server/runtime';
import { watchableVideoIds } from '../src/server/search/access';
import { CHUNK_SECONDS } from '../src/server/search/index-screen';
import { extractFrames, hashFile, readImage } from '../src/server/search/ocr';
import { searchIndex } from '../src/server/search/query';
import { createTestDatabase } from '../test/support/databases';
import { runIfMain } from '../test/support/child-main';

const exec = promisify(execFile);
const HOLD = Number(process.env.BENCH_SEARCH_HOLD ?? 15);
const PG_HOURS = Number(process.env.BENCH_SEARCH_HOURS ?? 2000);
const PGLITE_HOURS = Number(process.env.BENCH_SEARCH_PGLITE_HOURS ?? 200);
const QUERIES = Number(process.env.BENCH_SEARCH_QUERIES ?? 1000);
const RECORDINGS = Number(process.env.BENCH_SEARCH_RECORDINGS ?? 1000);
const QUERY_SECONDS = Number(process.env.BENCH_SEARCH_QUERY_SECONDS ?? 45);
const SKIP = new Set((process.env.BENCH_SEARCH_SKIP ?? '').split(',').filter(Boolean));
const ENGINES = (process.env.BENCH_ENGINES ?? 'postgres,pglite').split(',');
const PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

const MONO = '/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf';
const SANS = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
const SPEECH_SCRIPT = path.resolve('scripts/speech/pocketsphinx-vtt.sh');
const TESTDATA = '/usr/share/pocketsphinx/test/data';
const TESSERACT = 'tesseract';
const OCR_LANGS = 'eng';
const tools = createMediaTools({ ffmpegPath: 'ffmpeg', ffprobePath: 'ffprobe' });

const CODE = `function useTimer(delayMs) {
  const [ticks, setTicks] = useState(0);
  useEffect(() => {
    const id = setInterval(() => setTicks((n) => n + 1), delayMs);
    return () => clearInterval(id);
  }, [delayMs]);
}`;
const PROSE = `Closures and the event loop
A closure keeps the variables of the scope it was made in.
Each render of a component makes new functions and new closures.
Clean up timers and subscriptions when the effect is undone.`;

interface Slide {
  name: string;
  code: boolean;
  size: number;
  font: string;
  fg: string;
  bg: string;
  text: string;
}

const ALL_SLIDES: Slide[] = [
  ...[12, 16, 24].flatMap((size) => [
    {
      name: `code dark ${size} px`,
      code: true,
      size,
      font: MONO,
      fg: '0xd4d4d4',
      bg: '0x1e1e1e',
      text: CODE,
    },
    {
      name: `code light ${size} px`,
      code: true,
      size,
      font: MONO,
      fg: '0x202020',
      bg: '0xffffff',
      text: CODE,
    },
  ]),
  {
    name: 'prose slide 28 px',
    code: false,
    size: 28,
    font: SANS,
    fg: '0x202020',
    bg: '0xf4f4f4',
    text: PROSE,
  },
  {
    name: 'prose dark 28 px',
    code: false,
    size: 28,
    font: SANS,
    fg: '0xe0e0e0',
    bg: '0x1e1e1e',
    text: PROSE,
  },
];

/** BENCH_SEARCH_SLIDES=2: the first slides only (a smoke run). */
const SLIDES = ALL_SLIDES.slice(0, Number(process.env.BENCH_SEARCH_SLIDES ?? ALL_SLIDES.length));

/** What the speaker says (espeak-ng), a minute or so; repeated to fill the lecture. */
const SPEECH = `Today we look at the effect hook in react. An effect runs after the render is on the screen.
When the effect starts a timer, the cleanup function must clear that timer again.
Otherwise every render adds one more timer and the counter runs faster and faster.
The dependency list tells react when to run the effect again.
If the delay changes, the old timer is cleared and a new one is started.
Now let us open the terminal and rebase the branch before we push it.
We keep the history clean, so the review is easy to read.`;

// ---------------------------------------------------------------------------------------------
// Small helpers

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const pad = (s: string, n: number) => s.padEnd(n);
const lpad = (s: string, n: number) => s.padStart(n);

/** Levenshtein distance over code points (two rows). */
export function levenshtein<T>(a: readonly T[], b: readonly T[]): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

/** Lines without trailing spaces, no blank lines at either end; indentation kept. */
const normalise = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n')
    .replace(/^\n+|\n+$/g, '');

export function charAccuracy(ocr: string, truth: string): number {
  const t = [...normalise(truth)];
  return Math.max(0, 1 - levenshtein([...normalise(ocr)], t) / t.length);
}

const wordsOf = (text: string) => text.toLowerCase().match(/[a-z0-9']+/g) ?? [];

/** CPU seconds of the children this process has reaped, from /proc/self/stat (cutime + cstime). */
async function childCpuSeconds(): Promise<number> {
  const stat = await readFile('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/** CPU seconds of `work`: this process's own (process.cpuUsage) and its reaped children's. */
async function measureCpu<T>(work: () => Promise<T>): Promise<{ result: T; own: number; children: number }> {
  const own = process.cpuUsage();
  const children = await childCpuSeconds();
  const result = await work();
  const used = process.cpuUsage(own);
  return {
    result,
    own: (used.user + used.system) / 1e6,
    children: (await childCpuSeconds()) - children,
  };
}

/** Runs a command under /usr/bin/time: its CPU seconds (user + system, its own children included). */
async function timed(file: string, args: string[], dir: string): Promise<number> {
  const out = path.join(dir, `time-${Date.now()}-${Math.random().toString(36).slice(2)}.txt`);
  await exec('/usr/bin/time', ['-f', '%U %S', '-o', out, file, ...args], { maxBuffer: 1 << 26 });
  const [user, system] = (await readFile(out, 'utf8')).trim().split('\n').pop()!.split(' ').map(Number);
  return user! + system!;
}

const seconds = async (file: string) =>
  Number(
    (
      await exec('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file])
    ).stdout.trim(),
  );

// ---------------------------------------------------------------------------------------------
// 1 + 3: the lecture, its packaging and its screen text

interface Reading {
  t: number;
  text: string;
}

/**
 * The frames the index job would read in `input` and their text: 60 s pieces, frames at scene
 * changes and every 10 s of a steady screen, a frame identical to the last one skipped.
 */
async function readScreen(input: { file: string; format?: string }, duration: number, dir: string) {
  const readings: Reading[] = [];
  const signal = new AbortController().signal;
  let lastHash = '';
  let frames = 0;
  for (let from = 0; from < duration; from += CHUNK_SECONDS) {
    const piece = Math.min(CHUNK_SECONDS, duration - from);
    for (const frame of await extractFrames(tools, input, from, piece, dir, signal)) {
      frames++;
      const hash = await hashFile(frame.file);
      if (hash === lastHash) continue;
      lastHash = hash;
      readings.push({ t: frame.t, text: await readImage(TESSERACT, frame.file, OCR_LANGS, signal) });
    }
  }
  await rm(dir, { recursive: true, force: true });
  return { readings, frames };
}

async function slidePng(slide: Slide, file: string, dir: string) {
  const textFile = path.join(dir, `${path.basename(file)}.txt`);
  await writeFile(textFile, slide.text);
  await exec('ffmpeg', [
    '-v', 'error', '-y', '-f', 'lavfi', '-i', `color=c=${slide.bg}:s=1280x720`,
    '-vf', `drawtext=fontfile=${slide.font}:textfile=${textFile}:expansion=none:x=60:y=60:fontsize=${slide.size}:fontcolor=${slide.fg}:line_spacing=${Math.round(slide.size * 0.35)}`,
    '-frames:v', '1', file,
  ]); // prettier-ignore
}

interface LectureResult {
  ok: boolean;
  lectureSeconds: number;
  packagingCpu: number;
  screenCpu: { own: number; children: number; frames: number; readings: number };
  speechWav: string;
  speechText: string;
}

async function screenSection(work: string): Promise<LectureResult> {
  // The voice first: the lecture lasts as long as the slides or the voice, whichever is longer.
  const slidesSeconds = SLIDES.length * HOLD;
  const once = SPEECH.replace(/\s+/g, ' ');
  const voiceOnce = path.join(work, 'voice-once.wav');
  await exec('espeak-ng', ['-v', 'en-us', '-s', '150', '-w', voiceOnce, once]);
  // As many words as fit the slides (the text repeated, cut at a word), so every word is heard.
  const wordsPerSecond = once.split(' ').length / (await seconds(voiceOnce));
  const all = Array.from({ length: 20 }, () => once)
    .join(' ')
    .split(' ');
  const speechText = all.slice(0, Math.max(5, Math.floor(slidesSeconds * wordsPerSecond * 0.95))).join(' ');
  const voice = path.join(work, 'voice.wav');
  await exec('espeak-ng', ['-v', 'en-us', '-s', '150', '-w', voice, speechText]);
  const lectureSeconds = Math.ceil(Math.max(slidesSeconds, (await seconds(voice)) + 1));

  const pngs: string[] = [];
  for (const [i, slide] of SLIDES.entries()) {
    const file = path.join(work, `slide-${i}.png`);
    await slidePng(slide, file, work);
    pngs.push(file);
  }
  const list = pngs
    .map((f, i) => `file '${f}'\nduration ${i === pngs.length - 1 ? lectureSeconds - i * HOLD : HOLD}`)
    .join('\n');
  await writeFile(path.join(work, 'slides.txt'), `${list}\nfile '${pngs.at(-1)}'\n`);
  const source = path.join(work, 'lecture.mp4');
  // As a screen recorder writes it: H.264 4:2:0 at 25 fps, AAC.
  await exec('nice', [
    '-n', '10', 'ffmpeg', '-v', 'error', '-y', '-f', 'concat', '-safe', '0', '-i', path.join(work, 'slides.txt'),
    '-i', voice, '-af', 'apad', '-vf', 'fps=25,format=yuv420p', '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20',
    '-c:a', 'aac', '-b:a', '96k', '-t', String(lectureSeconds), source,
  ]); // prettier-ignore

  // Packaging as the package and ladder jobs do it: the source rendition, then each rung below it.
  const probe = (await tools.probe(source))!;
  const rungs = ladderFor(probe.video!.height);
  const lowest = Math.min(...rungs);
  const packaged = path.join(work, 'packaged');
  const packaging = await measureCpu(async () => {
    await writeRendition(tools, {
      source,
      sourceSize: probe.video!,
      outDir: path.join(packaged, `v${probe.video!.height}`),
      plan: planFor(probe),
      lowPriority: true,
    });
    for (const height of rungs)
      await writeRendition(tools, {
        source,
        sourceSize: probe.video!,
        outDir: path.join(packaged, `v${height}`),
        plan: { kind: 'encode', height, audio: audioPlanFor(probe) },
        lowPriority: true,
      });
  });

  const screen = await measureCpu(() =>
    readScreen({ file: source }, lectureSeconds, path.join(work, 'frames')),
  );
  // The lowest rung, its segments joined into one MPEG-TS as the job joins a rung's.
  const rungDir = path.join(packaged, `v${lowest}`);
  const segments = (await readdir(rungDir)).filter((n) => n.endsWith('.ts')).sort();
  const joined = path.join(work, `v${lowest}.ts`);
  await writeFile(
    joined,
    Buffer.concat(await Promise.all(segments.map((s) => readFile(path.join(rungDir, s))))),
  );
  const rung = await readScreen(
    { file: joined, format: 'mpegts' },
    lectureSeconds,
    path.join(work, 'frames-rung'),
  );

  const accuracyOf = (readings: Reading[], i: number) => {
    const end = i === SLIDES.length - 1 ? Infinity : (i + 1) * HOLD;
    const of = readings.filter((r) => r.t >= i * HOLD && r.t < end);
    if (!of.length) return undefined;
    return of.reduce((sum, r) => sum + charAccuracy(r.text, SLIDES[i]!.text), 0) / of.length;
  };
  console.log(
    `\n1. Screen text accuracy: a ${lectureSeconds} s lecture, 1280x720 H.264 (crf 20), ${SLIDES.length} slides of ${HOLD} s; ` +
      `Tesseract ${OCR_LANGS} as the index job runs it; lowest rung ${lowest}p (ladder ${rungs.join(', ')})`,
  );
  console.log(`   ${pad('slide', 22)} ${lpad('source', 8)} ${lpad(`${lowest}p`, 8)}   target`);
  let ok = true;
  for (const [i, slide] of SLIDES.entries()) {
    const a = accuracyOf(screen.result.readings, i);
    const b = accuracyOf(rung.readings, i);
    const targeted = slide.code && slide.size >= 16;
    const pass = a !== undefined && a >= 0.98;
    if (targeted && !pass) ok = false;
    console.log(
      `   ${pad(slide.name, 22)} ${lpad(a === undefined ? 'no frame' : pct(a), 8)} ${lpad(b === undefined ? 'no frame' : pct(b), 8)}   ${targeted ? `>= 98% ${pass ? 'ok' : 'MISSED'}` : ''}`,
    );
  }
  if (process.env.BENCH_SEARCH_SHOW_OCR) {
    for (const r of [...screen.result.readings, ...rung.readings]) console.log(`--- t=${r.t}\n${r.text}`);
  }
  return {
    ok,
    lectureSeconds,
    packagingCpu: packaging.children + packaging.own,
    screenCpu: {
      own: screen.own,
      children: screen.children,
      frames: screen.result.frames,
      readings: screen.result.readings.length,
    },
    speechWav: voice,
    speechText,
  };
}

// ---------------------------------------------------------------------------------------------
// 2 + 3: speech

interface SpeechRow {
  name: string;
  audioSeconds: number;
  refWords: number;
  errors: number;
  cpu: number;
}

/** The SPEECH_COMMAND script on a 16 kHz mono WAV: its words and CPU seconds. */
async function hear(wav: string, dir: string): Promise<{ words: string[]; cpu: number }> {
  const vtt = path.join(dir, `${path.basename(wav)}.vtt`);
  const cpu = await timed('/bin/sh', [SPEECH_SCRIPT, wav, vtt], dir);
  const cues = readWebVtt(await readFile(vtt, 'utf8')) ?? [];
  return { words: cues.flatMap((c) => wordsOf(c.plain)), cpu };
}

async function speechSection(work: string, lecture: LectureResult | undefined) {
  const rows: SpeechRow[] = [];
  const notes: string[] = [];
  const sets = ['librivox', 'cards'].filter((s) => existsSync(path.join(TESTDATA, s)));
  if (!sets.length) notes.push(`no ${TESTDATA} (apt-get install pocketsphinx-testdata): espeak-ng row only`);
  for (const set of sets) {
    const dir = path.join(TESTDATA, set);
    const transcript = (await readdir(dir)).find(
      (n) => n === 'transcription' || n.endsWith('.transcription'),
    );
    if (!transcript) continue;
    const row: SpeechRow = { name: `testdata ${set}`, audioSeconds: 0, refWords: 0, errors: 0, cpu: 0 };
    const listed = (await readFile(path.join(dir, transcript), 'utf8')).split('\n').filter((l) => l.trim());
    for (const line of listed.slice(0, RECORDINGS)) {
      const m = /^(.*)\(([^)]+)\)\s*$/.exec(line.trim());
      if (!m) continue;
      const file = path.join(dir, `${m[2]}.wav`);
      if (!existsSync(file)) continue;
      const ref = wordsOf(m[1]!.replace(/<\/?s>/g, ''));
      // Already 16 kHz mono; converted anyway, as the job converts the video's sound.
      const wav = path.join(work, `${set}-${m[2]}.wav`);
      await exec('ffmpeg', ['-v', 'error', '-y', '-i', file, '-ac', '1', '-ar', '16000', '-f', 'wav', wav]);
      const heard = await hear(wav, work);
      row.audioSeconds += await seconds(wav);
      row.refWords += ref.length;
      row.errors += levenshtein(heard.words, ref);
      row.cpu += heard.cpu;
    }
    if (row.refWords) rows.push(row);
  }
  let lectureCpu: { wav: number; script: number; audioSeconds: number } | undefined;
  if (lecture) {
    // The job's steps: the video's sound as 16 kHz mono WAV, then SPEECH_COMMAND on it.
    const wav = path.join(work, 'lecture-16k.wav');
    const wavCpu = await timed(
      'ffmpeg',
      ['-v', 'error', '-y', '-i', path.join(work, 'lecture.mp4'), '-vn', '-sn', '-ac', '1', '-ar', '16000', '-f', 'wav', wav],
      work,
    ); // prettier-ignore
    const heard = await hear(wav, work);
    const ref = wordsOf(lecture.speechText);
    rows.push({
      name: 'lecture, espeak-ng voice',
      audioSeconds: lecture.lectureSeconds,
      refWords: ref.length,
      errors: levenshtein(heard.words, ref),
      cpu: heard.cpu,
    });
    lectureCpu = { wav: wavCpu, script: heard.cpu, audioSeconds: lecture.lectureSeconds };
  }
  return { rows, notes, lectureCpu };
}

function printSpeech(speech: Awaited<ReturnType<typeof speechSection>>) {
  console.log(
    '\n2. Speech word error rate, SPEECH_COMMAND=scripts/speech/pocketsphinx-vtt.sh (for the record, no target)',
  );
  for (const note of speech.notes) console.log(`   ${note}`);
  console.log(
    `   ${pad('recordings', 26)} ${lpad('audio', 8)} ${lpad('words', 6)} ${lpad('WER', 7)} ${lpad('CPU/audio', 10)}`,
  );
  for (const r of speech.rows)
    console.log(
      `   ${pad(r.name, 26)} ${lpad(`${r.audioSeconds.toFixed(1)} s`, 8)} ${lpad(String(r.refWords), 6)} ${lpad(pct(r.errors / r.refWords), 7)} ${lpad(`${(r.cpu / r.audioSeconds).toFixed(2)}x`, 10)}`,
    );
}

// ---------------------------------------------------------------------------------------------
// 4: query latency

/** Words said all the time: in the cues, rarely searched for. */
const FILLERS =
  'the a to and of is in it that we this you for on with as are be so now here what if then'.split(' ');
/** What a bootcamp lecture talks about, and students search for. */
const TERMS = (
  'function return value state effect render component props hook list array object string number ' +
  'closure scope variable const let loop index key map filter reduce promise async await fetch error ' +
  'request response server client database query table column row join select insert update delete ' +
  'branch commit merge rebase push pull remote origin history review test assert mock deploy build ' +
  'docker container image volume network port python class method self init module import package ' +
  'install node npm yarn webpack vite router route handler middleware session cookie token password ' +
  'useState useEffect useMemo useCallback useRef setInterval clearInterval setTimeout addEventListener ' +
  'recursion complexity sort binary search tree graph queue stack heap hash linked pointer ' +
  'interface type generic enum union null undefined boolean callback event listener timer cleanup ' +
  'dependency schema migration index transaction lock cache redis kubernetes terraform lambda'
).split(' ');
/** Cue words by rank: fillers first, so they are the most frequent (ranks drawn as u^2.5). */
const VOCAB = [...FILLERS, ...TERMS];

const CODE_LINES = [
  'function useTimer(delayMs) {',
  '  const [ticks, setTicks] = useState(0);',
  '  useEffect(() => {',
  '    const id = setInterval(() => setTicks((n) => n + 1), delayMs);',
  '    return () => clearInterval(id);',
  '  }, [delayMs]);',
  'class Inventory:',
  '    def __init__(self, items):',
  '        self.items = sorted(items)  # O(n log n)',
  '    def find(self, key):',
  '        return bisect_left(self.items, key)',
  '$ git rebase -i origin/main',
  '$ git push --force-with-lease',
  '$ npm install --save-dev vitest',
  'SELECT name, count(*) FROM orders GROUP BY name;',
  'CREATE INDEX orders_user_idx ON orders (user_id);',
  'const router = express.Router();',
  "router.get('/api/users/:id', async (req, res) => {",
  '  const user = await db.users.findById(req.params.id);',
  '  if (!user) return res.status(404).end();',
  'export default function App() {',
  '  return <TodoList items={items} onToggle={toggle} />;',
  'docker compose up --build -d',
  'kubectl get pods -n staging',
  '# Merge sort: O(n log n) time, O(n) space',
  'def merge_sort(xs):',
  '    if len(xs) <= 1: return xs',
  'Big-O of binary search: O(log n)',
  'Closures capture variables, not values',
  'Week 6: hooks, effects and cleanup',
];

const QUERY_IDENTIFIERS = [
  'useState',
  'useEffect',
  'git rebase -i',
  '__init__',
  'O(n log n)',
  'setInterval',
  'clearInterval',
  'merge_sort',
  'findById',
  'force-with-lease',
  'GROUP BY',
  'kubectl',
  'express.Router',
  'res.status(404)',
];
const QUERY_PHRASES = [
  '"cleanup function"',
  '"binary search"',
  '"git rebase"',
  '"merge sort"',
  '"event listener"',
  '"linked list"',
  '"dependency list"',
  '"hash map"',
];

const sqlList = (items: string[]) =>
  `array[${items.map((w) => `'${w.replaceAll("'", "''")}'`).join(',')}]::text[]`;

/** Deterministic pseudo-random numbers (mulberry32). */
function prng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type QueryKind = 'word' | 'prefix' | 'phrase' | 'two words' | 'identifier';
const KINDS: QueryKind[] = ['word', 'prefix', 'phrase', 'two words', 'identifier'];

function mixedQueries(n: number): { kind: QueryKind; q: string }[] {
  const random = prng(29);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  // Students search for the subject's words, not the fillers.
  const word = () => pick(TERMS);
  const long = TERMS.filter((x) => x.length >= 5);
  return Array.from({ length: n }, () => {
    const r = random();
    if (r < 0.3) return { kind: 'word', q: word() };
    if (r < 0.5) return { kind: 'prefix', q: pick(long).slice(0, 3 + Math.floor(random() * 3)) };
    if (r < 0.65) return { kind: 'phrase', q: pick(QUERY_PHRASES) };
    if (r < 0.75) return { kind: 'two words', q: `${word()} ${word()}` };
    return { kind: 'identifier', q: pick(QUERY_IDENTIFIERS) };
  });
}

const rowsOf = async <T>(db: Db, query: ReturnType<typeof sql>) =>
  ((await db.execute(query)) as unknown as { rows: T[] }).rows;

const COURSES = 8;
const ENROLLED = 3;
const LECTURE_SECONDS = 90 * 60;

/** Runs `work` over `items`, `at` at a time. */
async function inParallel<T>(items: readonly T[], at: number, work: (item: T) => Promise<void>) {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: at }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
    }),
  );
}

/**
 * A school of `hours` lecture-hours: 90-minute lectures in COURSES courses, a caption cue every 3 s
 * (6-12 words) and a screen-text entry every 20 s (5-12 lines of code); one student enrolled in
 * ENROLLED courses and granted their videos. The entries are written course by course in one
 * statement each (set-based, words drawn in the database), the search indexes dropped first and
 * built again after (the migrations' own definitions), as a bulk load is done; on PostgreSQL two
 * courses and two indexes at a time (two cores).
 */
async function seedSchool(db: Db, engine: 'postgres' | 'pglite', hours: number, now: Date) {
  const videosTotal = Math.max(COURSES, Math.round((hours * 3600) / LECTURE_SECONDS));
  const at = now.toISOString();
  const parallel = engine === 'postgres' ? 2 : 1;
  await db.execute(sql`insert into users (role, username, email, name, rollno, password_hash, first_login)
    values ('student', 'searcher', 'searcher@bench.test', 'Searcher', 'S1', '$argon2id$v=19$m=19456,t=2,p=1$bench$bench', false)`);
  const [student] = await rowsOf<{ id: string }>(db, sql`select id from users where username = 'searcher'`);
  await db.execute(sql`insert into courses (batch, course_code, name, description, start_date, end_date)
    select 1, 'C' || i, 'Course ' || i, 'Search benchmark', '2026-01-01', '2026-12-31' from generate_series(1, ${COURSES}) i`);
  const courses = await rowsOf<{ id: string }>(db, sql`select id from courses order by course_code`);
  await db.execute(sql`insert into videos (title, course_id, position, status, duration_seconds, source_name, renditions)
    select 'Lecture ' || i, (array[${sql.raw(courses.map((c) => `'${c.id}'::uuid`).join(','))}])[1 + i % ${sql.raw(String(COURSES))}], i,
           'ready', ${LECTURE_SECONDS}, 'l' || i || '.mp4', '[720]'::jsonb
      from generate_series(1, ${videosTotal}) i`);
  const mine = courses.slice(0, ENROLLED).map((c) => c.id);
  for (const courseId of mine) {
    await db.execute(sql`insert into enrollments (course_id, student_id, access_expiration)
      values (${courseId}, ${student!.id}, ${at}::timestamptz + interval '365 days')`);
    await db.execute(sql`insert into video_access (video_id, student_id)
      select id, ${student!.id} from videos where course_id = ${courseId}`);
  }
  const indexes = await rowsOf<{ name: string; def: string }>(
    db,
    sql`select indexname as name, indexdef as def from pg_indexes
        where tablename = 'search_entries' and indexname like 'search_entries_%_idx'`,
  );
  for (const i of indexes) await db.execute(sql.raw(`drop index ${i.name}`));
  // search_terms is made once after the load, as migration 0020 makes it from entries indexed
  // before it: its triggers, rebuilding a video at each statement, are for a school's writes.
  await db.execute(sql`alter table search_entries disable trigger user`);
  const vocab = sqlList(VOCAB);
  const lines = sqlList(CODE_LINES);
  const started = performance.now();
  await inParallel(courses, parallel, async (course) => {
    // Word ranks skewed (u^2.5) as speech is; `g` in the subqueries makes them run per row.
    await db.execute(sql`insert into search_entries (video_id, source, language, start_seconds, end_seconds, text)
      select v.id, 'captions', 'en', g * 3.0, g * 3.0 + 2.9,
             (select string_agg((${sql.raw(vocab)})[1 + floor(power(random(), 2.5) * ${sql.raw(String(VOCAB.length))})::int], ' ')
                from generate_series(1, 6 + (g + v.position) % 7) w)
        from videos v, generate_series(0, ${sql.raw(String(LECTURE_SECONDS / 3 - 1))}) g
       where v.course_id = ${course.id}`);
    await db.execute(sql`insert into search_entries (video_id, source, language, start_seconds, end_seconds, text)
      select v.id, 'screen', '', g * 20.0, g * 20.0 + 20,
             (select string_agg((${sql.raw(lines)})[1 + floor(random() * ${sql.raw(String(CODE_LINES.length))})::int], E'\n')
                from generate_series(1, 5 + (g + v.position) % 8) w)
        from videos v, generate_series(0, ${sql.raw(String(LECTURE_SECONDS / 20 - 1))}) g
       where v.course_id = ${course.id}`);
  });
  const loaded = performance.now();
  await inParallel(indexes, parallel, (i) =>
    db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local maintenance_work_mem = '512MB'`));
      await tx.execute(sql.raw(i.def));
    }),
  );
  await db.execute(sql`alter table search_entries enable trigger user`);
  await db.execute(sql`select search_terms_rebuild(p.video_id, p.source)
    from (select distinct video_id, source from search_entries) p`);
  await db.execute(sql`analyze`);
  const [size] = await rowsOf<{ bytes: number; n: number }>(
    db,
    sql`select (pg_total_relation_size('search_entries') + pg_total_relation_size('search_terms'))::float8 as bytes,
               (select count(*)::int from search_entries) as n`,
  );
  return {
    studentId: student!.id,
    courseIds: mine,
    videos: videosTotal,
    hours: (videosTotal * LECTURE_SECONDS) / 3600,
    entries: size!.n,
    bytes: size!.bytes,
    loadSeconds: (loaded - started) / 1000,
    indexSeconds: (performance.now() - loaded) / 1000,
  };
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

interface Latency {
  p50: number;
  p95: number;
  p99: number;
  max: number;
  n: number;
}

function latencyOf(times: number[]): Latency {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    p50: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
    p99: quantile(sorted, 0.99),
    max: sorted.at(-1)!,
    n: sorted.length,
  };
}

interface EngineResult {
  engine: string;
  hours: number;
  entries: number;
  mbPerHour: number;
  seed: string;
  all: Latency;
  byKind: Map<QueryKind, Latency>;
  withHits: number;
  errors: number;
  capped: boolean;
  errorSample?: string;
  /** Queries (course-wide or not) that found nothing, distinct. */
  misses: string[];
}

/** A throwaway database on `engine`, migrated by Lectern's runtime and seeded; `measure` runs the queries. */
async function openEngine(engine: 'postgres' | 'pglite', hours: number) {
  const database = await createTestDatabase(engine, { server: PG_URL });
  const dataDir = await mkdtemp(path.join(tmpdir(), 'lectern-bench-search-db-'));
  const runtime = await openRuntime(
    loadConfig({
      DATA_DIR: dataDir,
      DATABASE_URL: engine === 'postgres' ? database.url : 'memory://',
      LOG_LEVEL: 'warn',
      OPEN_HOURS: 'always',
      SEED_DEMO: 'false',
    }),
  );
  const { ctx } = runtime;
  const close = async () => {
    await runtime.close();
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  };
  let school: Awaited<ReturnType<typeof seedSchool>>;
  try {
    console.log(`   [${engine}] seeding ${hours} lecture-hours…`);
    school = await seedSchool(ctx.db, engine, hours, ctx.clock.now());
    console.log(
      `   [${engine}] ${school.entries} entries in ${school.videos} videos: rows ${school.loadSeconds.toFixed(0)} s, indexes and search_terms ${school.indexSeconds.toFixed(0)} s`,
    );
  } catch (error) {
    await close();
    throw error;
  }

  async function measure(): Promise<EngineResult> {
    try {
      const queries = mixedQueries(QUERIES);
      const random = prng(7);
      const times: number[] = [];
      const byKind = new Map<QueryKind, number[]>(KINDS.map((k) => [k, []]));
      let withHits = 0;
      let errors = 0;
      let errorSample: string | undefined;
      const misses = new Set<string>();
      const ask = async (q: string, courseId: string | undefined) => {
        // GET /api/search: who may watch what now, then the search within it.
        const now = ctx.clock.now();
        const videoIds = await watchableVideoIds(ctx, school.studentId, now);
        return searchIndex(ctx.db, q, { videoIds, courseId });
      };
      for (const { q } of queries.slice(0, 10)) await ask(q, undefined); // warm-up
      const deadline = performance.now() + QUERY_SECONDS * 1000;
      for (const { kind, q } of queries) {
        if (performance.now() > deadline) break;
        // Half from a course page (this course), half from the dashboard (all my courses).
        const courseId = random() < 0.5 ? school.courseIds[Math.floor(random() * ENROLLED)] : undefined;
        const started = performance.now();
        try {
          const hits = await ask(q, courseId);
          if (hits.length) withHits++;
          else misses.add(`${q}${courseId ? ' (one course)' : ''}`);
        } catch (error) {
          errors++;
          // drizzle wraps the driver's error (a statement timeout, say): its cause says why.
          const { message, cause } = error as Error & { cause?: Error };
          errorSample ??= `${q}: ${(cause?.message ?? message).split('\n')[0]}`;
        }
        const ms = performance.now() - started;
        times.push(ms);
        byKind.get(kind)!.push(ms);
      }
      return {
        engine,
        hours: school.hours,
        entries: school.entries,
        mbPerHour: school.bytes / 1e6 / school.hours,
        seed: `${(school.loadSeconds + school.indexSeconds).toFixed(0)} s`,
        all: latencyOf(times),
        byKind: new Map([...byKind].filter(([, t]) => t.length).map(([k, t]) => [k, latencyOf(t)])),
        withHits,
        errors,
        capped: times.length < queries.length,
        errorSample,
        misses: [...misses],
      };
    } finally {
      await close();
    }
  }
  return { measure };
}

function printQueries(engines: EngineResult[], notes: string[]): boolean {
  let ok = true;
  console.log(
    `\n4. Query latency: ${QUERIES} mixed queries (words, prefixes, phrases, identifiers), one at a time, as GET /api/search runs them (watchableVideoIds + searchIndex), half within one course`,
  );
  for (const note of notes) console.log(`   ${note}`);
  console.log(
    `   ${pad('engine', 9)} ${lpad('hours', 6)} ${lpad('entries', 9)} ${lpad('seed', 6)} ${lpad('queries', 8)} ${lpad('p50 ms', 7)} ${lpad('p95 ms', 7)} ${lpad('p99 ms', 7)} ${lpad('max ms', 7)} ${lpad('hits', 5)} ${lpad('errors', 6)} ${lpad('MB/h', 6)}   target`,
  );
  const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
  for (const e of engines) {
    const targeted = e.engine === 'postgres';
    const pass = e.all.p95 < 50 && e.errors === 0;
    if (targeted && !pass) ok = false;
    console.log(
      `   ${pad(e.engine, 9)} ${lpad(e.hours.toFixed(0), 6)} ${lpad(String(e.entries), 9)} ${lpad(e.seed, 6)} ${lpad(`${e.all.n}${e.capped ? '*' : ''}`, 8)} ${lpad(ms(e.all.p50), 7)} ${lpad(ms(e.all.p95), 7)} ${lpad(ms(e.all.p99), 7)} ${lpad(ms(e.all.max), 7)} ${lpad(String(e.withHits), 5)} ${lpad(String(e.errors), 6)} ${lpad(e.mbPerHour.toFixed(2), 6)}   ${targeted ? `p95 < 50 ms ${pass ? 'ok' : 'MISSED'}` : ''}`,
    );
    if (e.errorSample) console.log(`     first error: ${e.errorSample}`);
    if (e.misses.length) console.log(`     no hits: ${e.misses.slice(0, 8).join(', ')}`);
  }
  if (engines.some((e) => e.capped))
    console.log(
      `   * stopped after BENCH_SEARCH_QUERY_SECONDS=${QUERY_SECONDS} s: the first queries of the same mix`,
    );
  console.log(
    `   hits: queries with at least one hit; MB/h: pg_total_relation_size of search_entries and search_terms (tables, TOAST, indexes) per lecture-hour`,
  );
  console.log(`   by kind, p50 / p95 ms (queries)`);
  console.log(`   ${pad('engine', 9)} ${KINDS.map((k) => lpad(k, 20)).join(' ')}`);
  for (const e of engines)
    console.log(
      `   ${pad(e.engine, 9)} ${KINDS.map((k) => {
        const l = e.byKind.get(k);
        return lpad(l ? `${ms(l.p50)} / ${ms(l.p95)} (${l.n})` : '-', 20);
      }).join(' ')}`,
    );
  return ok;
}

// ---------------------------------------------------------------------------------------------

export async function run(): Promise<boolean> {
  const work = await mkdtemp(path.join(tmpdir(), 'lectern-bench-search-'));
  let ok = true;
  try {
    console.log(`machine: 2 cores, load ${loadavg()[0]!.toFixed(1)} (1 min) at the start`);
    const lecture = SKIP.has('ocr') ? undefined : await screenSection(work);
    if (lecture) ok &&= lecture.ok;
    // Speech runs on one core while the databases are seeded (the seeding is mostly the server's).
    const speechRun = SKIP.has('speech') ? undefined : speechSection(work, lecture);
    speechRun?.catch(() => undefined);

    const engines: EngineResult[] = [];
    const queryNotes: string[] = [];
    if (!SKIP.has('query')) {
      console.log(`\n4. Query latency (seeding; results below)`);
      const opened: { measure(): Promise<EngineResult> }[] = [];
      for (const engine of ENGINES) {
        if (engine === 'postgres' && !PG_URL) {
          queryNotes.push('PostgreSQL skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL');
          continue;
        }
        opened.push(await openEngine(engine as 'postgres', engine === 'postgres' ? PG_HOURS : PGLITE_HOURS));
      }
      // Latency is measured with nothing else running: the speech engine done first.
      await speechRun;
      for (const engine of opened) engines.push(await engine.measure());
    }
    const speech = await speechRun;
    if (speech) printSpeech(speech);

    if (lecture) {
      const perHour = (cpu: number, secs: number) => ((cpu / secs) * 3600).toFixed(0);
      console.log(
        `\n3. Indexing cost, CPU seconds per hour of video (the ${lecture.lectureSeconds} s lecture)`,
      );
      console.log(`   ${pad('work', 44)} ${lpad('CPU s', 7)} ${lpad('CPU s/h', 8)}`);
      const row = (name: string, cpu: number, secs = lecture.lectureSeconds) =>
        console.log(`   ${pad(name, 44)} ${lpad(cpu.toFixed(1), 7)} ${lpad(perHour(cpu, secs), 8)}`);
      row('packaging (remux + rungs, no encryption)', lecture.packagingCpu);
      const s = lecture.screenCpu;
      row(`screen text (${s.frames} frames, ${s.readings} OCR runs)`, s.own + s.children);
      row('  of which Tesseract + ffmpeg (children)', s.children);
      if (speech?.lectureCpu) {
        const l = speech.lectureCpu;
        row('speech (16 kHz WAV + pocketsphinx script)', l.wav + l.script, l.audioSeconds);
      }
      console.log(
        `   slides change every ${HOLD} s with no moving picture: a live-coding screen or a camera inset changes more often, and costs more frames`,
      );
    }

    if (!SKIP.has('query')) ok = printQueries(engines, queryNotes) && ok;
    console.log(`machine: load ${loadavg()[0]!.toFixed(1)} (1 min) at the end`);
    return ok;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

runIfMain(import.meta.url, run);
