import { and, eq, isNotNull } from 'drizzle-orm';
import type { AppContext } from '../context';
import { playbackSessions, users, videos } from '../db/schema';
import { createMediaTools } from '../storage/ffmpeg';
import { PLAYLIST } from '../media/packaging/hls';
import { renditionSegments } from '../media/packaging/rendition-reader';
import { mediaKeys, readText, renditionName, type MediaStore } from '../storage';
import { openForensicSecret } from '../videos/video-secrets';
import {
  accuse,
  DESIGN_FALSE_ACCUSATION,
  DESIGN_SESSIONS,
  minimumDecidedSegments,
  sessionSequence,
  type Decision,
} from '../marks/code';
import { alignExcerpt, decideSegments, DETECT_FPS, type Reference } from './detector';
import { decodeLuma } from './luma';
import { MARK_SEGMENT_SECONDS, VARIANT_B_TAG } from '../marks/mark';

export interface TracedLeak {
  code: string;
  score: number;
  agreements: number;
  decided: number;
  /** ln of the chance that an innocent session agrees this often. */
  logInnocentChance: number;
  startedAt: Date;
  ip: string;
  student: { id: string; name: string; rollno: string | null; username: string };
}

export type TraceFileResult =
  | { kind: 'not-a-video' }
  | { kind: 'no-marked-video'; videoId?: string }
  | { kind: 'no-match'; videoId?: string }
  | {
      kind: 'matched';
      videoId: string;
      title: string;
      /** Where the file starts in the video, in seconds. */
      startsAt: number;
      decided: number;
      undecided: number;
      /** Agreements needed out of `decided` (Infinity: too few segments decided to name anyone). */
      threshold: number;
      accused: TracedLeak[];
    };

interface MarkedVideo {
  id: string;
  title: string;
  secret: Buffer;
  renditions: number[];
  store: MediaStore;
  durationSeconds: number;
}

/** Both variants of the video's smallest marked rendition, as the detector sees them. */
async function referenceOf(
  ctx: AppContext,
  video: MarkedVideo,
  signal?: AbortSignal,
  onDecoded?: (seconds: number) => void,
): Promise<Reference> {
  const rendition = renditionName(Math.min(...video.renditions));
  let before = 0;
  const decode = async (variant: 'A' | 'B') => {
    const stdin = await renditionSegments(ctx, video.store, video.id, rendition, variant);
    if (!stdin) throw new Error(`rendition ${rendition} of ${video.id} is missing`);
    const luma = await decodeLuma(createMediaTools(ctx.config), '-', {
      stdin,
      format: 'mpegts',
      signal,
      onDecoded: (seconds) => onDecoded?.(before + seconds),
    });
    before = video.durationSeconds;
    return luma;
  };
  return {
    a: await decode('A'),
    b: await decode('B'),
    segmentSeconds: await segmentSecondsOf(video, rendition),
  };
}

/** The rendition's segment grid, from its first #EXTINF (every segment but the last has that length). */
async function segmentSecondsOf(video: MarkedVideo, rendition: string): Promise<number> {
  const playlist = await readText(video.store, mediaKeys.videoFile(video.id, rendition, PLAYLIST));
  const first = /^#EXTINF:([\d.]+)/m.exec(playlist ?? '');
  return first ? Math.round(Number(first[1]) * 10) / 10 : MARK_SEGMENT_SECONDS;
}

async function markedVideos(ctx: AppContext, videoId: string | undefined): Promise<MarkedVideo[]> {
  const rows = await ctx.db
    .select({
      id: videos.id,
      title: videos.title,
      secret: videos.forensicSecret,
      renditions: videos.renditions,
      store: videos.store,
      durationSeconds: videos.durationSeconds,
    })
    .from(videos)
    .where(
      and(
        isNotNull(videos.forensicSecret),
        eq(videos.status, 'ready'),
        ...(videoId ? [eq(videos.id, videoId)] : []),
      ),
    );
  const marked: MarkedVideo[] = [];
  for (const row of rows) {
    const store = ctx.media.of(row.store);
    // Only renditions already written marked count (the first one may still be the remux).
    const heights: number[] = [];
    for (const height of row.renditions) {
      const text = await readText(store, mediaKeys.videoFile(row.id, renditionName(height), PLAYLIST));
      if (text?.includes(VARIANT_B_TAG)) heights.push(height);
    }
    if (heights.length)
      marked.push({
        id: row.id,
        title: row.title,
        secret: openForensicSecret(ctx.signingKey, row.id, row.secret)!,
        renditions: heights,
        store,
        durationSeconds: row.durationSeconds,
      });
  }
  return marked;
}

export interface TraceFileOptions {
  /** The marked video the file is from; else it is compared with every marked video. */
  videoId?: string;
  signal?: AbortSignal;
  /** How progress names the file (default: its path). */
  label?: string;
  /** What the trace is doing, and how much of its decoding is done (0..1), as it goes. */
  onProgress?: (text: string, fraction: number) => void;
}

/**
 * The share of the decoding done: the copy, then both variants of each candidate video, weighted
 * by their seconds (decoding is nearly all of a trace's time).
 */
function decodingShare(fileSeconds: number, candidates: MarkedVideo[]) {
  const total = Math.max(1, fileSeconds + candidates.reduce((sum, v) => sum + 2 * v.durationSeconds, 0));
  let finished = 0;
  return {
    at: (seconds: number, expected: number) => Math.min(1, (finished + Math.min(seconds, expected)) / total),
    finish: (expected: number) => void (finished += expected),
  };
}

/**
 * `trace:file`: finds which marked video `file` is an excerpt of (or checks the one given), where it
 * starts, decides A or B for every segment it covers, and scores every playback session of that
 * video (marks/code.ts). Accuses only at the code's threshold: a file too short, re-encoded past
 * recognition or from another video names nobody.
 */
export async function traceFile(
  ctx: AppContext,
  file: string,
  options: TraceFileOptions = {},
): Promise<TraceFileResult> {
  const progress = options.onProgress ?? (() => undefined);
  const tools = createMediaTools(ctx.config);
  const probe = await tools.probe(file, options.signal);
  if (!probe?.video) return { kind: 'not-a-video' };
  const candidates = await markedVideos(ctx, options.videoId);
  if (!candidates.length) return { kind: 'no-marked-video', videoId: options.videoId };
  const share = decodingShare(probe.durationSeconds, candidates);
  const decoding = `Decoding ${options.label ?? file} (${probe.durationSeconds.toFixed(0)} s)…`;
  progress(decoding, 0);
  const suspect = await decodeLuma(tools, file, {
    signal: options.signal,
    onDecoded: (seconds) => progress(decoding, share.at(seconds, probe.durationSeconds)),
  });
  share.finish(probe.durationSeconds);

  let best: { video: MarkedVideo; reference: Reference; offset: number; difference: number } | undefined;
  for (const video of candidates) {
    const comparing = `Comparing with "${video.title}"…`;
    const both = 2 * video.durationSeconds;
    progress(comparing, share.at(0, both));
    const reference = await referenceOf(ctx, video, options.signal, (seconds) =>
      progress(comparing, share.at(seconds, both)),
    );
    share.finish(both);
    const aligned = alignExcerpt(suspect, reference);
    if (aligned && (!best || aligned.difference < best.difference)) best = { video, reference, ...aligned };
  }
  if (!best) return { kind: 'no-match', videoId: options.videoId };

  const { video, reference, offset } = best;
  const decisions = decideSegments(suspect, reference, offset);
  const first = decisions[0]?.segment ?? 0;
  const bySegment: Decision[] = [];
  for (const d of decisions) bySegment[d.segment - first] = d.decision;
  const sessions = await ctx.db
    .select({ code: playbackSessions.code })
    .from(playbackSessions)
    .where(eq(playbackSessions.videoId, video.id));
  const segments = first + bySegment.length;
  const result = accuse(
    bySegment,
    sessions.map((s) => ({ code: s.code, sequence: sessionSequence(video.secret, s.code, segments) })),
    // A video watched in more sessions than the code was designed for keeps its bound per session.
    { first, sessions: Math.max(DESIGN_SESSIONS, sessions.length), eps: DESIGN_FALSE_ACCUSATION },
  );
  const accused: TracedLeak[] = [];
  for (const a of result.accused) {
    const [row] = await ctx.db
      .select({
        startedAt: playbackSessions.startedAt,
        ip: playbackSessions.ip,
        id: users.id,
        name: users.name,
        rollno: users.rollno,
        username: users.username,
      })
      .from(playbackSessions)
      .innerJoin(users, eq(users.id, playbackSessions.userId))
      .where(eq(playbackSessions.code, a.code))
      .limit(1);
    if (!row) continue;
    accused.push({
      ...a,
      startedAt: row.startedAt,
      ip: row.ip,
      student: { id: row.id, name: row.name, rollno: row.rollno, username: row.username },
    });
  }
  return {
    kind: 'matched',
    videoId: video.id,
    title: video.title,
    startsAt: offset / DETECT_FPS,
    decided: result.decided,
    undecided: decisions.length - result.decided,
    threshold: result.threshold,
    accused,
  };
}

const dashed = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;

/** Why `result` names nobody, in a sentence; undefined when it names someone. */
export function whyNobody(result: TraceFileResult): string | undefined {
  switch (result.kind) {
    case 'not-a-video':
      return 'Not a video: ffmpeg finds no video stream in this file.';
    case 'no-marked-video':
      return result.videoId
        ? `Video ${result.videoId} has no marked rendition (FORENSIC_MARKS was off when it was packaged).`
        : 'No video has marked renditions yet (FORENSIC_MARKS=on marks videos as their ladder is made).';
    case 'no-match':
      return result.videoId
        ? `This file does not match video ${result.videoId}.`
        : 'This file matches none of the marked videos.';
    case 'matched': {
      if (result.accused.length) return undefined;
      const need = Number.isFinite(result.threshold)
        ? `${result.threshold} of ${result.decided} agreeing with one session`
        : `at least ${minimumDecidedSegments()} decided segments (${((minimumDecidedSegments() * MARK_SEGMENT_SECONDS) / 60).toFixed(1)} minutes of video)`;
      return `The evidence is below the threshold (${need}).`;
    }
  }
}

/** What `trace:file` prints. */
export function describeTrace(result: TraceFileResult): string {
  const why = whyNobody(result);
  if (result.kind !== 'matched') return `${why} No session found.`;
  const head = `Matches "${result.title}" (${result.videoId}) from ${result.startsAt.toFixed(1)} s: ${result.decided} segment(s) decided, ${result.undecided} undecided.`;
  if (why) return `${head}\nNo session found: ${why.charAt(0).toLowerCase()}${why.slice(1)}`;
  const lines = result.accused.map(
    (a) =>
      `Session ${dashed(a.code)}: score ${a.score}, ${a.agreements} of ${a.decided} decided segments agree ` +
      `(an innocent session: p < ${Math.exp(a.logInnocentChance).toExponential(1)}). ` +
      `${a.student.name}${a.student.rollno ? `, roll no ${a.student.rollno}` : ''} (${a.student.username}), ` +
      `started ${a.startedAt.toISOString()} from ${a.ip}.`,
  );
  return [head, ...lines].join('\n');
}
