import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import {
  frameUrlOf,
  MAX_SEARCH_HITS,
  SNIPPET_MARK,
  type SearchHit,
  type SearchSource,
} from '../../contract/search';
import type { Db } from '../db/client';
import { searchEntries, videos } from '../db/schema';

/** Hits one video may contribute, so one long lecture cannot fill the page. */
const HITS_PER_VIDEO = 5;
/** Candidates read before grouping. */
const CANDIDATES = 300;
/** A query runs at most this long (PostgreSQL's statement_timeout). */
export const SEARCH_TIMEOUT_MS = 3_000;
const MAX_TERMS = 12;
/** Substring (pg_trgm) matching needs this many characters. */
const MIN_SUBSTRING = 3;
const SNIPPET_RADIUS = 70;

/**
 * What a query asks for: full-text terms (a quoted phrase or a word's parts must follow each other,
 * the last word may be a prefix) and the literal text for identifiers (`__init__`, `O(n log n)`).
 * Built from letters and digits only, so no input can break the tsquery's syntax.
 */
export interface ParsedQuery {
  tsquery: string | undefined;
  /** Lower-cased literal text (quotes dropped), for the trigram index; undefined when too short. */
  literal: string | undefined;
  /** What the snippet marks. */
  marks: string[];
}

const wordsOf = (text: string) => (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_TERMS);

export function parseQuery(input: string): ParsedQuery {
  const q = input.normalize('NFKC').trim().replace(/\s+/g, ' ');
  const groups: { words: string[]; phrase: boolean }[] = [];
  for (const match of q.matchAll(/"([^"]*)"?|(\S+)/g)) {
    const words = wordsOf(match[1] ?? match[2] ?? '');
    if (words.length) groups.push({ words, phrase: match[1] !== undefined });
  }
  const terms = groups.slice(0, MAX_TERMS).map((g, i, all) => {
    const last = i === all.length - 1 && !g.phrase;
    const parts = g.words.map((w, j) => (last && j === g.words.length - 1 ? `${w}:*` : w));
    return parts.length > 1 ? `(${parts.join(' <-> ')})` : parts[0]!;
  });
  const literal = q.replaceAll('"', '').trim().toLowerCase();
  const usable = literal.length >= MIN_SUBSTRING ? literal : undefined;
  const marks = [...new Set([...(usable ? [usable] : []), ...groups.flatMap((g) => g.words)])];
  return { tsquery: terms.length ? terms.join(' & ') : undefined, literal: usable, marks };
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A short piece of `text` around its first match, every match wrapped in SNIPPET_MARK. */
export function snippetOf(text: string, marks: readonly string[]): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const lower = flat.toLowerCase();
  const found = marks
    .map((m) => ({ m, at: lower.indexOf(m) }))
    .filter((f) => f.at >= 0)
    .sort((a, b) => b.m.length - a.m.length || a.at - b.at)[0];
  const centre = found?.at ?? 0;
  const from = Math.max(0, centre - SNIPPET_RADIUS);
  const to = Math.min(flat.length, centre + (found?.m.length ?? 0) + SNIPPET_RADIUS);
  const piece = flat.slice(from, to);
  const pieceLower = piece.toLowerCase();
  // Mark the longest matches first and never inside a mark already made.
  const spans: [number, number][] = [];
  for (const m of [...marks].sort((a, b) => b.length - a.length)) {
    for (let at = pieceLower.indexOf(m); at >= 0 && m; at = pieceLower.indexOf(m, at + m.length)) {
      if (!spans.some(([s, e]) => at < e && at + m.length > s)) spans.push([at, at + m.length]);
    }
  }
  spans.sort((a, b) => a[0] - b[0]);
  let out = '';
  let cursor = 0;
  for (const [s, e] of spans) {
    out += `${piece.slice(cursor, s)}${SNIPPET_MARK.open}${piece.slice(s, e)}${SNIPPET_MARK.close}`;
    cursor = e;
  }
  out += piece.slice(cursor);
  return `${from > 0 ? '…' : ''}${out}${to < flat.length ? '…' : ''}`;
}

export interface SearchScope {
  /** The videos the searcher may see; undefined: every video (staff). */
  videoIds?: readonly string[];
  courseId?: string;
}

/**
 * The best hits for `input` among the scope's videos, grouped by video (videos by their best hit),
 * at most MAX_SEARCH_HITS. An input with nothing searchable answers no hits.
 */
export async function searchIndex(db: Db, input: string, scope: SearchScope): Promise<SearchHit[]> {
  const parsed = parseQuery(input);
  if (!parsed.tsquery && !parsed.literal) return [];
  if (scope.videoIds && scope.videoIds.length === 0) return [];
  const vector = sql`to_tsvector('simple', ${searchEntries.text})`;
  const query = parsed.tsquery ? sql`to_tsquery('simple', ${parsed.tsquery})` : undefined;
  const like = parsed.literal ? `%${escapeLike(parsed.literal)}%` : undefined;
  const literalHit: SQL = like ? sql`lower(${searchEntries.text}) like ${like} escape '\\'` : sql`false`;
  const textHit: SQL = query ? sql`${vector} @@ ${query}` : sql`false`;
  const score = sql<number>`(case when ${literalHit} then 1.0 else 0.0 end)
    + ${query ? sql`ts_rank(${vector}, ${query})` : sql`0.0`}`;
  const rows = await db.transaction(async (tx) => {
    await tx.execute(sql.raw(`set local statement_timeout = ${SEARCH_TIMEOUT_MS}`));
    return tx
      .select({
        videoId: searchEntries.videoId,
        courseId: videos.courseId,
        title: videos.title,
        t: searchEntries.startSeconds,
        source: searchEntries.source,
        text: searchEntries.text,
        score,
      })
      .from(searchEntries)
      .innerJoin(videos, eq(videos.id, searchEntries.videoId))
      .where(
        and(
          sql`(${textHit} or ${literalHit})`,
          scope.videoIds ? inArray(searchEntries.videoId, [...scope.videoIds]) : undefined,
          scope.courseId ? eq(videos.courseId, scope.courseId) : undefined,
        ),
      )
      .orderBy(sql`${score} desc`, searchEntries.videoId, searchEntries.startSeconds)
      .limit(CANDIDATES);
  });
  const byVideo = new Map<string, typeof rows>();
  for (const row of rows) {
    const list = byVideo.get(row.videoId) ?? [];
    if (list.length < HITS_PER_VIDEO) list.push(row);
    byVideo.set(row.videoId, list);
  }
  return [...byVideo.values()]
    .flat()
    .slice(0, MAX_SEARCH_HITS)
    .map((row) => ({
      videoId: row.videoId,
      courseId: row.courseId,
      title: row.title,
      t: Math.round(row.t * 10) / 10,
      source: row.source as SearchSource,
      snippet: snippetOf(row.text, parsed.marks),
      frameUrl: frameUrlOf(row.videoId, row.t),
    }));
}
