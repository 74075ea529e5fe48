import { and, eq, inArray, notInArray, sql, type SQL } from 'drizzle-orm';
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
/** Matches read and ranked, at most, per query (and per way in: words, then the literal text). */
const CANDIDATES = 1_000;
/** A query runs at most this long (PostgreSQL's statement_timeout). */
export const SEARCH_TIMEOUT_MS = 3_000;
const SEARCH_WORK_MEM = '32MB';
const MAX_TERMS = 12;
/** Substring (pg_trgm) matching needs this many characters, and so does a prefix (`i:*` is half the index). */
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
  /**
   * The literal has punctuation (`res.status(404)`, `git rebase -i`): it is searched as a phrase of
   * PostgreSQL's own tokens (`res.status` is one token to its parser, and `res & status` no match).
   */
  punctuated: boolean;
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
    const prefix = (w: string, j: number) => last && j === g.words.length - 1 && w.length >= MIN_SUBSTRING;
    const parts = g.words.map((w, j) => (prefix(w, j) ? `${w}:*` : w));
    return parts.length > 1 ? `(${parts.join(' <-> ')})` : parts[0]!;
  });
  const literal = q.replaceAll('"', '').trim().toLowerCase();
  const usable = literal.length >= MIN_SUBSTRING ? literal : undefined;
  const marks = [...new Set([...(usable ? [usable] : []), ...groups.flatMap((g) => g.words)])];
  return {
    tsquery: terms.length ? terms.join(' & ') : undefined,
    literal: usable,
    punctuated: usable !== undefined && /[^\p{L}\p{N}\s]/u.test(usable),
    marks,
  };
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

type Candidate = {
  id: string;
  videoId: string;
  courseId: string | null;
  title: string;
  t: number;
  source: SearchSource;
  text: string;
  score: number;
};

/**
 * The best hits for `input` among the scope's videos, grouped by video (videos by their best hit),
 * at most MAX_SEARCH_HITS. An input with nothing searchable answers no hits.
 *
 * The work is bounded, whatever the input: matches are collected as the index finds them, at most
 * CANDIDATES, and only those are ranked. A word said in every lecture matches a hundred thousand
 * cues of a large school; ranking them all took seconds (docs/SEARCH.md, "Figures"). Such a word's
 * page shows the best of the first CANDIDATES matches in the index's order (the videos indexed
 * first); a rarer word's, the best of all its matches.
 *
 * Words are found through `words` (full text: the last word as a prefix; input with punctuation as
 * a phrase of PostgreSQL's tokens). The literal text (pg_trgm) is a second way in, only when words
 * found less than a page: a part of a word (`Interval` in `setInterval`, `tatus(40`). Asking it
 * always would cost a scan of every entry holding the query's trigrams. Wherever it matches, the
 * literal text ranks a hit higher.
 */
export async function searchIndex(db: Db, input: string, scope: SearchScope): Promise<SearchHit[]> {
  const parsed = parseQuery(input);
  if (!parsed.tsquery && !parsed.literal) return [];
  if (scope.videoIds && scope.videoIds.length === 0) return [];
  const query = parsed.punctuated
    ? sql`phraseto_tsquery('simple', ${parsed.literal})`
    : parsed.tsquery
      ? sql`to_tsquery('simple', ${parsed.tsquery})`
      : undefined;
  const like = parsed.literal ? `%${escapeLike(parsed.literal)}%` : undefined;
  const literalHit: SQL = like ? sql`lower(${searchEntries.text}) like ${like} escape '\\'` : sql`false`;
  const wordsHit: SQL = query ? sql`${searchEntries.words} @@ ${query}` : sql`false`;
  const score = sql<number>`(case when ${literalHit} then 1.0 else 0.0 end)
    + ${query ? sql`ts_rank(${searchEntries.words}, ${query})` : sql`0.0`}`;
  // The videos to look in: the searcher's, within the course when one is asked for (undefined: all).
  let videoIds = scope.videoIds;
  if (scope.courseId) {
    const ofCourse = await db
      .select({ id: videos.id })
      .from(videos)
      .where(eq(videos.courseId, scope.courseId));
    const mine = videoIds && new Set(videoIds);
    videoIds = ofCourse.map((v) => v.id).filter((id) => !mine || mine.has(id));
    if (!videoIds.length) return [];
  }
  // Checked on the rows the text indexes find (`::text`: not through the video index, whose bitmap
  // of a school's every entry costs more than the search).
  const inScope = videoIds ? inArray(sql`${searchEntries.videoId}::text`, [...videoIds]) : undefined;
  const candidates = async (tx: Db, match: SQL, except: readonly string[]) => {
    const found = tx
      .select({
        id: searchEntries.id,
        videoId: searchEntries.videoId,
        t: searchEntries.startSeconds,
        source: searchEntries.source,
        text: searchEntries.text,
        score: score.as('score'),
      })
      .from(searchEntries)
      .where(and(match, inScope, except.length ? notInArray(searchEntries.id, [...except]) : undefined))
      .limit(CANDIDATES)
      .as('found');
    // The videos joined after the limit, so the planner plans the search on its own.
    return tx
      .select({
        id: found.id,
        videoId: found.videoId,
        courseId: videos.courseId,
        title: videos.title,
        t: found.t,
        source: found.source,
        text: found.text,
        score: found.score,
      })
      .from(found)
      .innerJoin(videos, eq(videos.id, found.videoId));
  };
  const rows: Candidate[] = await db.transaction(async (tx) => {
    // One round trip for the transaction's settings: a time limit; through the text indexes always
    // (a sequential scan stopping at CANDIDATES looks cheap to the planner when a word is common, but
    // reads the whole table when the searcher's videos lie late in it); and room for an exact bitmap
    // of a common word's matches (at 4 MB it turns lossy, and every row of a lossy page is checked).
    await tx.execute(sql`select set_config('statement_timeout', ${String(SEARCH_TIMEOUT_MS)}, true),
      set_config('enable_seqscan', 'off', true), set_config('work_mem', ${SEARCH_WORK_MEM}, true)`);
    const first = query ? await candidates(tx, wordsHit, []) : [];
    if (first.length >= MAX_SEARCH_HITS || !like) return first;
    const more = await candidates(tx, literalHit, first.map((r) => r.id));
    return [...first, ...more];
  });
  rows.sort((a, b) => b.score - a.score || a.videoId.localeCompare(b.videoId) || a.t - b.t);
  const byVideo = new Map<string, Candidate[]>();
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
      source: row.source,
      snippet: snippetOf(row.text, parsed.marks),
      frameUrl: frameUrlOf(row.videoId, row.t),
    }));
}
