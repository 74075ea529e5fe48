import { BUCKET_SECONDS, type WatchRange } from '../../contract/progress';

/**
 * A student's watched seconds of one video as a bitmap: bit i (byte i >> 3, low bit first) is
 * second [i, i + 1). A range marks the seconds it covers at least half of, so consecutive saves
 * that split a second between them still mark it once. A one-hour video takes 450 bytes.
 */
export function cellCount(durationSeconds: number): number {
  return Math.max(0, Math.ceil(durationSeconds));
}

/** Seconds marked in `cells`. */
export function countCells(cells: Uint8Array | null): number {
  if (!cells) return 0;
  let n = 0;
  for (const byte of cells) {
    let b = byte;
    while (b) {
      b &= b - 1;
      n++;
    }
  }
  return n;
}

const isSet = (cells: Uint8Array, i: number) => (cells[i >> 3]! & (1 << (i & 7))) !== 0;

/** What one save adds to a student's record of a video. */
export interface WatchDelta {
  /** The merged bitmap (a new array; the old one is left alone). */
  cells: Uint8Array;
  /** Seconds marked that were not marked before. */
  newSeconds: number;
  /** Buckets in which this save marked the student's first second (each gains a viewer), ascending. */
  newViewerBuckets: number[];
  /** Milliseconds played per bucket, rewatching included, ascending by bucket. */
  playedMs: [bucket: number, ms: number][];
  /** Seconds played in all (the ranges' total length). */
  playedSeconds: number;
}

/**
 * Merges played `ranges` (already checked: ordered, non-overlapping, inside the video) into the
 * bitmap `previous` of a video of `durationSeconds`. Work is bounded by the ranges' length.
 */
export function mergeRanges(
  previous: Uint8Array | null,
  ranges: readonly WatchRange[],
  durationSeconds: number,
): WatchDelta {
  const count = cellCount(durationSeconds);
  const cells = new Uint8Array(Math.ceil(count / 8));
  if (previous) cells.set(previous.subarray(0, cells.length));
  const old = previous && previous.length ? cells.slice() : null;
  const bucketWasEmpty = (bucket: number) => {
    if (!old) return true;
    const end = Math.min(count, (bucket + 1) * BUCKET_SECONDS);
    for (let i = bucket * BUCKET_SECONDS; i < end; i++) if (isSet(old, i)) return false;
    return true;
  };

  let newSeconds = 0;
  const touched = new Set<number>();
  const played = new Map<number, number>();
  let playedSeconds = 0;
  for (const [rawStart, rawEnd] of ranges) {
    const start = Math.max(0, Math.min(rawStart, durationSeconds));
    const end = Math.max(start, Math.min(rawEnd, durationSeconds));
    playedSeconds += end - start;
    for (let i = Math.round(start), last = Math.min(count, Math.round(end)); i < last; i++) {
      const byte = i >> 3;
      const bit = 1 << (i & 7);
      if ((cells[byte]! & bit) === 0) {
        cells[byte] = cells[byte]! | bit;
        newSeconds++;
        touched.add(Math.floor(i / BUCKET_SECONDS));
      }
    }
    // Played milliseconds, split at bucket edges.
    for (let b = Math.floor(start / BUCKET_SECONDS); b * BUCKET_SECONDS < end; b++) {
      const from = Math.max(start, b * BUCKET_SECONDS);
      const to = Math.min(end, (b + 1) * BUCKET_SECONDS);
      const ms = Math.round((to - from) * 1000);
      if (ms > 0) played.set(b, (played.get(b) ?? 0) + ms);
    }
  }
  return {
    cells,
    newSeconds,
    newViewerBuckets: [...touched].filter(bucketWasEmpty).sort((a, b) => a - b),
    playedMs: [...played].sort((a, b) => a[0] - b[0]),
    playedSeconds,
  };
}
