import { SNIPPET_MARK } from '../../contract/search-limits';

/** A snippet's pieces: plain text, and the matches the server marked between « and ». */
export function snippetPieces(snippet: string): { text: string; match: boolean }[] {
  const out: { text: string; match: boolean }[] = [];
  let rest = snippet;
  while (rest) {
    const open = rest.indexOf(SNIPPET_MARK.open);
    const close = open < 0 ? -1 : rest.indexOf(SNIPPET_MARK.close, open + 1);
    if (open < 0 || close < 0) {
      out.push({ text: rest, match: false });
      break;
    }
    if (open > 0) out.push({ text: rest.slice(0, open), match: false });
    out.push({ text: rest.slice(open + 1, close), match: true });
    rest = rest.slice(close + 1);
  }
  return out;
}

/** Where a hit opens: the course page at that video, two seconds before the moment. */
export const hitLink = (hit: { courseId: string | null; videoId: string; t: number }) =>
  `/course/${hit.courseId ?? ''}?video=${encodeURIComponent(hit.videoId)}&t=${Math.floor(hit.t)}`;

/** A hit's second from a `t` query parameter, or undefined when it is not one. */
export function hitFromParam(value: string | null): number | undefined {
  if (value === null) return undefined;
  const t = Number(value);
  return Number.isFinite(t) && t >= 0 ? t : undefined;
}

/** The seconds a `t` query parameter asks the player to start at (two before the hit), or undefined. */
export function startFromParam(value: string | null): number | undefined {
  const t = hitFromParam(value);
  return t === undefined ? undefined : Math.max(0, t - 2);
}

/** Hits grouped by video, in the order each video first appears (the server ranks them best first). */
export function groupByVideo<T extends { videoId: string }>(hits: T[]): T[][] {
  const groups = new Map<string, T[]>();
  for (const hit of hits) {
    const group = groups.get(hit.videoId);
    if (group) group.push(hit);
    else groups.set(hit.videoId, [hit]);
  }
  return [...groups.values()];
}
