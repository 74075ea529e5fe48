/**
 * Forensic A/B marks (issue 21, docs/FORENSIC.md), side by side in one run on a lecture-like clip
 * (test/support/lecture-clip.ts, 1280x720 H.264):
 * - packaging CPU and storage: today's packaging (remux of the source + the ladder below it)
 *   against every rung written twice, A and B, by production's `writeMarkedVariants`;
 * - SSIM of a marked rendition against the unmarked one, and crops of the slide and the code;
 * - per-segment A/B decisions from the raw segments and after x264 re-encodes (480p at 1 Mbps,
 *   720p at 500 kbps), decoded and correlated by the tracer's own detector;
 * - the rows: excerpts traced among 10,000 sessions per video. Excerpts within the clip
 *   are spliced from the decoded frames of the all-A and all-B copies and aligned for real; rows
 *   on a 20-minute video (200 segments) draw each segment's outcome from the measured outcomes
 *   of the clip's segments (its A and B copies), since the clip is shorter.
 *
 *   npm run bench -- forensic       FORENSIC_BENCH_SECONDS=240 FORENSIC_TRIALS=50 FORENSIC_KEEP=1
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  accuse,
  agreementsToAccuse,
  DESIGN_SESSIONS,
  minimumDecidedSegments,
  sessionSequence,
  type Candidate,
  type Decision,
} from '../src/server/marks/code';
import {
  alignExcerpt,
  decideSegments,
  DETECT_FPS,
  FRAME_BYTES,
  type Reference,
} from '../src/server/forensic/detector';
import { decodeLuma } from '../src/server/forensic/luma';
import { MARK_AMPLITUDE, MARK_SEGMENT_SECONDS, patternFrames, type Variant } from '../src/server/marks/mark';
import { createMediaTools } from '../src/server/storage/ffmpeg';
import {
  audioPlanFor,
  ladderFor,
  planFor,
  writeMarkedVariants,
  writeRendition,
} from '../src/server/media/packaging/hls';
import { markingGroups } from '../src/server/media/packaging/marked-rendition';
import { makeLectureClip } from '../test/support/lecture-clip';

const run$ = promisify(execFile);
const SECONDS = Number(process.env.FORENSIC_BENCH_SECONDS ?? 240);
const TRIALS = Number(process.env.FORENSIC_TRIALS ?? 50);
const VIDEO_SEGMENTS = (20 * 60) / MARK_SEGMENT_SECONDS; // a 20-minute video
const PER_SEGMENT = MARK_SEGMENT_SECONDS * DETECT_FPS;
/** Segments in an excerpt of `minutes` of a marked video. */
const segmentsIn = (minutes: number) => (minutes * 60) / MARK_SEGMENT_SECONDS;
/** Whole segments any excerpt of `minutes` holds, wherever it starts (one fewer when it starts mid-segment). */
const wholeIn = (minutes: number) => segmentsIn(minutes) - 1;
/** The clip is long enough for a real 2-minute excerpt of frames. */
const TWO_MINUTE_FRAMES = SECONDS >= 120 + MARK_SEGMENT_SECONDS;
const tools = createMediaTools({ ffmpegPath: 'ffmpeg', ffprobePath: 'ffprobe' });

/** CPU seconds of the children this process has reaped (ffmpeg), from /proc/self/stat. */
async function childCpuSeconds(): Promise<number> {
  const stat = await readFile('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100; // cutime + cstime, in USER_HZ
}

async function measureCpu(work: () => Promise<void>): Promise<number> {
  const before = await childCpuSeconds();
  await work();
  return (await childCpuSeconds()) - before;
}

async function bytesIn(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    total += entry.isDirectory() ? await bytesIn(full) : (await stat(full)).size;
  }
  return total;
}

const ffmpeg = (args: string[]) =>
  run$('nice', ['-n', '10', 'ffmpeg', '-hide_banner', '-v', 'error', '-y', ...args], { maxBuffer: 1 << 26 });

async function ssim(a: string, b: string): Promise<number> {
  const { stderr } = await run$('nice', [
    '-n', '10', 'ffmpeg', '-hide_banner', '-i', a, '-i', b, '-lavfi', '[0:v][1:v]ssim', '-f', 'null', '-',
  ]); // prettier-ignore
  return Number(/All:([\d.]+)/.exec(stderr)?.[1] ?? NaN);
}

/** A plain rendition's luma, its segments fed to ffmpeg in order (as the trace reads the references). */
async function decodeRendition(dir: string): Promise<Uint8Array> {
  const playlist = await readFile(path.join(dir, 'index.m3u8'), 'utf8');
  const files = playlist.split('\n').filter((line) => line && !line.startsWith('#'));
  async function* segments() {
    for (const file of files) yield await readFile(path.join(dir, file));
  }
  return decodeLuma(tools, '-', { stdin: segments(), format: 'mpegts' });
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

interface Outcome {
  correct: number;
  erased: number;
  wrong: number;
}

/** Per-segment decisions of a copy that is all `variant`, against what it should read. */
function outcomes(decisions: Decision[], expected: Decision): Outcome {
  const o = { correct: 0, erased: 0, wrong: 0 };
  for (const d of decisions) {
    if (d === undefined) o.erased++;
    else if (d === expected) o.correct++;
    else o.wrong++;
  }
  return o;
}

function innocentPool(secret: Buffer, prefix: string): Candidate[] {
  return Array.from({ length: DESIGN_SESSIONS - 1 }, (_, i) => {
    const code = `${prefix}${i.toString(32).toUpperCase().padStart(7, '0')}`;
    return { code, sequence: sessionSequence(secret, code, VIDEO_SEGMENTS) };
  });
}

interface Tally {
  trials: number;
  right: number;
  nobody: number;
  innocentNamed: number;
  innocentChecks: number;
  decidedMean: number;
}

const newTally = (): Tally => ({
  trials: 0,
  right: 0,
  nobody: 0,
  innocentNamed: 0,
  innocentChecks: 0,
  decidedMean: 0,
});

function record(t: Tally, accused: string[], guilty: string[], decided: number, innocents: number) {
  t.trials++;
  t.decidedMean += (decided - t.decidedMean) / t.trials;
  t.innocentChecks += innocents;
  if (accused.some((c) => guilty.includes(c))) t.right++;
  if (!accused.length) t.nobody++;
  t.innocentNamed += accused.filter((c) => !guilty.includes(c)).length;
}

export async function run(): Promise<boolean> {
  const work = await mkdtemp(path.join(tmpdir(), 'lectern-forensic-bench-'));
  const secret = randomBytes(32);
  try {
    console.log(
      `Lecture clip: ${SECONDS} s, 1280x720 H.264, mark amplitude +-${MARK_AMPLITUDE} luma level(s)`,
    );
    const source = await makeLectureClip(path.join(work, 'lecture.mp4'), { seconds: SECONDS });
    const probe = (await tools.probe(source))!;
    const segments = Math.ceil(probe.durationSeconds / MARK_SEGMENT_SECONDS - 1e-6);
    const patternFile = path.join(work, 'pattern.gray');
    await writeFile(patternFile, patternFrames(secret, segments));
    const rungs = ladderFor(probe.video!.height);
    const heights = [probe.video!.height, ...rungs];
    const audio = audioPlanFor(probe); // as production: the clip's AAC is copied into every rung

    // Packaging: what Lectern does today, then both variants of every rung.
    const plain = path.join(work, 'plain');
    const remuxCpu = await measureCpu(async () => {
      await writeRendition(tools, {
        source, sourceSize: probe.video!, outDir: path.join(plain, `v${heights[0]}`), plan: planFor(probe), lowPriority: true,
      }); // prettier-ignore
    });
    const ladderCpu = await measureCpu(async () => {
      for (const height of rungs) {
        await writeRendition(tools, {
          source, sourceSize: probe.video!, outDir: path.join(plain, `v${height}`),
          plan: { kind: 'encode', height, audio }, lowPriority: true,
        }); // prettier-ignore
      }
    });
    const plainCpu = remuxCpu + ladderCpu;
    // The ladder as it was when issue 21 was filed: each rung encoded its audio again.
    const ladderReencodingAudioCpu = await measureCpu(async () => {
      for (const height of rungs) {
        await writeRendition(tools, {
          source, sourceSize: probe.video!, outDir: path.join(work, `audio-reencoded-v${height}`),
          plan: { kind: 'encode', height, audio: 'aac' }, lowPriority: true,
        }); // prettier-ignore
      }
    });
    // A source Lectern cannot remux (not H.264 4:2:0) has its top rung encoded too.
    const topEncodeCpu = await measureCpu(
      () =>
      writeRendition(tools, {
        source, sourceSize: probe.video!, outDir: path.join(work, 'top-encoded'),
        plan: { kind: 'encode', height: heights[0]!, audio }, lowPriority: true,
      }).then(() => undefined), // prettier-ignore
    );
    const marked = path.join(work, 'marked');
    const dirOf = (height: number, variant: Variant) => path.join(marked, `v${height}${variant}`);
    // Production's marking: one ffmpeg process writes both variants of as many rungs as fit (marked-rendition.ts).
    const markedCpu = await measureCpu(async () => {
      for (const group of markingGroups(heights, probe.video!)) {
        await writeMarkedVariants(tools, {
          source, sourceSize: probe.video!, heights: group, audio, patternFile,
          segmentSeconds: MARK_SEGMENT_SECONDS, outDirOf: dirOf, lowPriority: true,
        }); // prettier-ignore
      }
    });
    // The mark's own cost: one rung (the last of the ladder) encoded twice unmarked vs its A and B.
    const lowest = heights.at(-1)!;
    const rungPlainCpu = await measureCpu(async () => {
      for (const copy of ['1', '2']) {
        await writeRendition(tools, {
          source, sourceSize: probe.video!, outDir: path.join(work, `rung-plain-${copy}`),
          plan: { kind: 'encode', height: lowest, audio }, lowPriority: true, segmentSeconds: MARK_SEGMENT_SECONDS,
        }); // prettier-ignore
      }
    });
    const rungMarkedCpu = await measureCpu(async () => {
      await writeMarkedVariants(tools, {
        source, sourceSize: probe.video!, heights: [lowest], audio, patternFile,
        segmentSeconds: MARK_SEGMENT_SECONDS, outDirOf: (_, variant) => path.join(work, `rung-marked-${variant}`), lowPriority: true,
      }); // prettier-ignore
    });
    const plainBytes = await bytesIn(plain);
    const markedBytes = await bytesIn(marked);

    // Whole copies: every segment A, every segment B (raw = the segments' own bytes, remuxed).
    const top = heights[0]!;
    const raw = { A: path.join(work, 'all-A.mp4'), B: path.join(work, 'all-B.mp4') };
    for (const variant of ['A', 'B'] as const) {
      await ffmpeg(['-i', path.join(dirOf(top, variant), 'index.m3u8'), '-c', 'copy', raw[variant]]);
    }
    const ssimMarked = await ssim(raw.A, path.join(plain, `v${top}`, 'index.m3u8'));
    const ssimRung = await ssim(
      path.join(work, 'rung-marked-A', 'index.m3u8'),
      path.join(work, 'rung-plain-1', 'index.m3u8'),
    );
    await ffmpeg(['-ss', '8', '-i', raw.A, '-ss', '8', '-i', source, '-filter_complex',
      '[0:v]crop=560:300:40:120[a];[1:v]crop=560:300:40:120[u];[a][u]vstack', '-frames:v', '1',
      path.join(work, 'crop-slide-code.png')]); // prettier-ignore

    const attacks: Record<string, string[]> = {
      raw: [],
      '480p @ 1 Mbps': ['-vf', 'scale=-2:480', '-b:v', '1M', '-maxrate', '1M', '-bufsize', '2M'],
      '720p @ 500 kbps': ['-vf', 'scale=-2:720', '-b:v', '500k', '-maxrate', '500k', '-bufsize', '1M'],
    };
    const reference: Reference = {
      a: await decodeRendition(dirOf(lowest, 'A')),
      b: await decodeRendition(dirOf(lowest, 'B')),
      segmentSeconds: MARK_SEGMENT_SECONDS,
    };
    const lumas: Record<string, { A: Uint8Array; B: Uint8Array }> = {};
    const measured: Record<string, { A: Decision[]; B: Decision[] }> = {};
    let attackCpu = 0;
    console.log(
      `\nPer-segment decisions (every segment of the all-A and all-B copies; reference: both variants of the ${lowest}p rung)`,
    );
    console.log('| copy              | correct | undecided | wrong | mean score A / B | aligned at |');
    console.log('| ----------------- | ------- | --------- | ----- | ---------------- | ---------- |');
    for (const [name, args] of Object.entries(attacks)) {
      const copies = { A: raw.A, B: raw.B };
      if (args.length) {
        for (const variant of ['A', 'B'] as const) {
          copies[variant] = path.join(work, `${name.replace(/\W+/g, '')}-${variant}.mp4`);
          attackCpu += await measureCpu(() =>
            ffmpeg([
              '-i',
              raw[variant],
              ...args,
              '-c:v',
              'libx264',
              '-preset',
              'veryfast',
              '-an',
              copies[variant],
            ]).then(() => undefined),
          );
        }
      }
      const A = await decodeLuma(tools, copies.A);
      const B = await decodeLuma(tools, copies.B);
      lumas[name] = { A, B };
      const alignedA = alignExcerpt(A, reference);
      const dA = decideSegments(A, reference, 0);
      const dB = decideSegments(B, reference, 0);
      measured[name] = { A: dA.map((d) => d.decision), B: dB.map((d) => d.decision) };
      const oA = outcomes(measured[name].A, 0);
      const oB = outcomes(measured[name].B, 1);
      const n = dA.length + dB.length;
      const mean = (ds: typeof dA) => ds.reduce((s, d) => s + d.score, 0) / ds.length;
      console.log(
        `| ${name.padEnd(17)} | ${pct((oA.correct + oB.correct) / n).padStart(7)} | ${pct((oA.erased + oB.erased) / n).padStart(9)} | ${pct((oA.wrong + oB.wrong) / n).padStart(5)} | ${mean(dA).toFixed(2).padStart(6)} / ${mean(dB).toFixed(2).padEnd(7)} | ${String(alignedA?.offset ?? 'none').padStart(10)} |`,
      );
    }

    // The rows.
    const rowSecret = randomBytes(32);
    const innocents = innocentPool(rowSecret, 'I');
    const tallies: Record<string, Tally> = {};
    const tally = (name: string) => (tallies[name] ??= newTally());

    /** Real frames: an excerpt of `length` segments of a session's copy, spliced from the A and B decodes. */
    const frameTrial = (row: string, attack: string, lengthSegments: number) => {
      const code = `L${randomBytes(4).toString('hex').toUpperCase()}`;
      const sequence = sessionSequence(rowSecret, code, VIDEO_SEGMENTS);
      const { A, B } = lumas[attack]!;
      const frames = Math.min(A.length, B.length) / FRAME_BYTES;
      // Exactly that long, from a random frame: mostly starting mid-segment, as a real excerpt does.
      const length = Math.min(frames, lengthSegments * PER_SEGMENT);
      const start = Math.floor(Math.random() * (frames - length + 1));
      const excerpt = new Uint8Array(length * FRAME_BYTES);
      for (let f = 0; f < length; f++) {
        const at = start + f;
        const from = sequence[Math.floor(at / PER_SEGMENT)] ? B : A;
        excerpt.set(from.subarray(at * FRAME_BYTES, (at + 1) * FRAME_BYTES), f * FRAME_BYTES);
      }
      const aligned = alignExcerpt(excerpt, reference);
      const decided = aligned ? decideSegments(excerpt, reference, aligned.offset) : [];
      const result = decided.length
        ? accuse(
            decided.map((d) => d.decision),
            [{ code, sequence }, ...innocents],
            { first: decided[0]!.segment },
          )
        : undefined;
      record(
        tally(row),
        result?.accused.map((a) => a.code) ?? [],
        [code],
        result?.decided ?? 0,
        innocents.length,
      );
    };

    /** A 20-minute video: segment i reads like clip segment i mod n of the attack's A or B copy. */
    const decisionTrial = (
      row: string,
      attack: string,
      firstSegment: number,
      lengthSegments: number,
      colluders: 1 | 2,
    ) => {
      const codes = Array.from(
        { length: colluders },
        () => `L${randomBytes(4).toString('hex').toUpperCase()}`,
      );
      const sequences = codes.map((c) => sessionSequence(rowSecret, c, VIDEO_SEGMENTS));
      const m = measured[attack]!;
      const clipSegments = Math.min(m.A.length, m.B.length);
      const decisions: Decision[] = [];
      for (let i = firstSegment; i < firstSegment + lengthSegments; i++) {
        const bit = sequences[i % colluders]![i]!; // colluders alternate segment by segment
        decisions.push((bit ? m.B : m.A)[i % clipSegments]);
      }
      const result = accuse(
        decisions,
        [...codes.map((code, k) => ({ code, sequence: sequences[k]! })), ...innocents],
        { first: firstSegment },
      );
      record(
        tally(row),
        result.accused.map((a) => a.code),
        codes,
        result.decided,
        innocents.length,
      );
    };

    const startOf = (length: number) => Math.floor(Math.random() * (VIDEO_SEGMENTS - length + 1));
    const clipSegments = Math.floor(SECONDS / MARK_SEGMENT_SECONDS);
    for (let t = 0; t < TRIALS; t++) {
      if (TWO_MINUTE_FRAMES) frameTrial('raw, 2-minute excerpt (frames)', 'raw', segmentsIn(2));
      frameTrial(`raw, whole clip (${clipSegments} segments, frames)`, 'raw', clipSegments);
      frameTrial(`480p @ 1 Mbps, whole clip (frames)`, '480p @ 1 Mbps', clipSegments);
      frameTrial(`720p @ 500 kbps, whole clip (frames)`, '720p @ 500 kbps', clipSegments);
    }
    for (let t = 0; t < TRIALS * 4; t++) {
      decisionTrial('raw, 2-minute excerpt (20-min video)', 'raw', startOf(wholeIn(2)), wholeIn(2), 1);
      decisionTrial('raw, 4-minute excerpt (20-min video)', 'raw', startOf(wholeIn(4)), wholeIn(4), 1);
      decisionTrial(
        '480p @ 1 Mbps, 10-minute excerpt',
        '480p @ 1 Mbps',
        startOf(wholeIn(10)),
        wholeIn(10),
        1,
      );
      decisionTrial(
        '720p @ 500 kbps, 10-minute excerpt',
        '720p @ 500 kbps',
        startOf(wholeIn(10)),
        wholeIn(10),
        1,
      );
      decisionTrial('two colluders splicing, raw, whole video', 'raw', 0, VIDEO_SEGMENTS, 2);
      decisionTrial('two colluders splicing, 480p @ 1 Mbps', '480p @ 1 Mbps', 0, VIDEO_SEGMENTS, 2);
    }

    console.log(
      `\nTracing: ${DESIGN_SESSIONS.toLocaleString()} sessions per video (the leaker(s) + ${innocents.length.toLocaleString()} innocents), accusation at P(innocent) <= 1e-6 / ${DESIGN_SESSIONS.toLocaleString()}`,
    );
    console.log(
      `minimum decided segments to accuse anyone: ${minimumDecidedSegments()} (${(minimumDecidedSegments() * MARK_SEGMENT_SECONDS) / 60} min); agreements needed of ${segmentsIn(2)} (2 min): ${agreementsToAccuse(segmentsIn(2))}, of ${segmentsIn(10)} (10 min): ${agreementsToAccuse(segmentsIn(10))}`,
    );
    console.log(
      '| trial                                        | trials | right session | no session | innocents named | decided (mean) |',
    );
    console.log(
      '| -------------------------------------------- | ------ | ------------- | ---------- | --------------- | -------------- |',
    );
    let innocentNamed = 0;
    let innocentChecks = 0;
    for (const [name, t] of Object.entries(tallies)) {
      innocentNamed += t.innocentNamed;
      innocentChecks += t.innocentChecks;
      console.log(
        `| ${name.padEnd(44)} | ${String(t.trials).padStart(6)} | ${pct(t.right / t.trials).padStart(13)} | ${pct(t.nobody / t.trials).padStart(10)} | ${String(t.innocentNamed).padStart(15)} | ${t.decidedMean.toFixed(1).padStart(14)} |`,
      );
    }

    const cpuRatio = markedCpu / plainCpu;
    const storageRatio = markedBytes / plainBytes;
    const rate = (name: string) => tallies[name]!.right / tallies[name]!.trials;
    const rows: [string, string, string, boolean][] = [
      [
        'Raw, any 2-minute excerpt',
        '100% of >= 50',
        `${pct(rate('raw, 2-minute excerpt (20-min video)'))} on a 20-minute video; ` +
          (TWO_MINUTE_FRAMES
            ? `${pct(rate('raw, 2-minute excerpt (frames)'))} spliced from the clip's frames`
            : `frames not tried (the clip is shorter than 2 minutes)`) +
          ` (${wholeIn(2)} whole segments of ${MARK_SEGMENT_SECONDS} s; ${minimumDecidedSegments()} needed)`,
        rate('raw, 2-minute excerpt (20-min video)') === 1 &&
          (!TWO_MINUTE_FRAMES || rate('raw, 2-minute excerpt (frames)') === 1),
      ],
      [
        '480p @ 1 Mbps, 10-minute excerpt',
        '>= 95%',
        pct(rate('480p @ 1 Mbps, 10-minute excerpt')),
        rate('480p @ 1 Mbps, 10-minute excerpt') >= 0.95,
      ],
      [
        '720p @ 500 kbps, 10-minute excerpt',
        '>= 95%',
        pct(rate('720p @ 500 kbps, 10-minute excerpt')),
        rate('720p @ 500 kbps, 10-minute excerpt') >= 0.95,
      ],
      [
        'Two students splicing, whole video',
        '>= 90%, no one else',
        `${pct(rate('two colluders splicing, raw, whole video'))} raw, ${pct(rate('two colluders splicing, 480p @ 1 Mbps'))} at 480p`,
        rate('two colluders splicing, raw, whole video') >= 0.9,
      ],
      [
        'Innocent sessions',
        `0 of >= 10,000 x trials`,
        `${innocentNamed} of ${innocentChecks.toLocaleString()}`,
        innocentNamed === 0,
      ],
      [
        'Packaging CPU',
        '<= 2.5x',
        `${cpuRatio.toFixed(2)}x vs remux + ladder (${markedCpu.toFixed(0)} / ${plainCpu.toFixed(0)} s); ` +
          `${(markedCpu / (remuxCpu + ladderReencodingAudioCpu)).toFixed(2)}x vs the ladder at the issue (audio encoded per rung, ${(remuxCpu + ladderReencodingAudioCpu).toFixed(0)} s); ` +
          `${(markedCpu / (topEncodeCpu + ladderCpu)).toFixed(2)}x vs a source that must be encoded (${(topEncodeCpu + ladderCpu).toFixed(0)} s); ` +
          `one rung's A and B vs two plain encodes: ${(rungMarkedCpu / rungPlainCpu).toFixed(2)}x`,
        cpuRatio <= 2.5,
      ],
      [
        'Storage',
        '<= 2.1x',
        `${storageRatio.toFixed(2)}x (${(markedBytes / 1e6).toFixed(1)} / ${(plainBytes / 1e6).toFixed(1)} MB)`,
        storageRatio <= 2.1,
      ],
      [
        'SSIM marked vs unmarked',
        '>= 0.99',
        `${ssimMarked.toFixed(4)} (top, vs the remux); ${ssimRung.toFixed(4)} (${lowest}p rung vs the same encode unmarked)`,
        ssimMarked >= 0.99 && ssimRung >= 0.99,
      ],
    ];
    console.log(
      `\nIssue 21's table (attack encodes took ${attackCpu.toFixed(0)} s CPU; crops: ${path.join(work, 'crop-slide-code.png')})`,
    );
    console.log('| row                                  | target                   | measured | met |');
    console.log('| ------------------------------------ | ------------------------ | -------- | --- |');
    for (const [row, target, value, met] of rows)
      console.log(`| ${row.padEnd(36)} | ${target.padEnd(24)} | ${value} | ${met ? 'yes' : 'NO'} |`);
    return rows.every((r) => r[3]);
  } finally {
    if (!process.env.FORENSIC_KEEP) await rm(work, { recursive: true, force: true });
    else console.log(`kept ${work}`);
  }
}
