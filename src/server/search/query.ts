import { and, eq, sql, type SQL } from 'drizzle-orm';
import {
  frameUrlOf,
  MAX_SEARCH_HITS,
  type SearchHit,
  type SnippetPiece,
  type SearchSource,
} from '../../contract/search';
import { matchSpans } from '../../contract/text-matches';
import type { Db } from '../db/client';
import { rowsOf, uuidArray } from '../db/raw';
import { searchEntries, searchTerms, videos } from '../db/schema';

/** Hits one video may contribute, so one long lecture cannot fill the page. */
const HITS_PER_VIDEO = 5;
/** A query runs at most this long (PostgreSQL's statement_timeout). */
export const SEARCH_TIMEOUT_MS = 3_000;
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
  /** The words every hit holds (lexemes as `search_terms` keeps them), the last maybe a prefix. */
  terms: Term[];
  /** What the snippet marks. */
  marks: string[];
}

export interface Term {
  lexeme: string;
  prefix: boolean;
}

const wordsOf = (text: string) => (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_TERMS);

export function parseQuery(input: string): ParsedQuery {
  const q = input.normalize('NFKC').trim().replace(/\s+/g, ' ');
  const groups: { words: string[]; phrase: boolean }[] = [];
  for (const match of q.matchAll(/"([^"]*)"?|(\S+)/g)) {
    const words = wordsOf(match[1] ?? match[2] ?? '');
    if (words.length) groups.push({ words, phrase: match[1] !== undefined });
  }
  const words: Term[] = [];
  const terms = groups.slice(0, MAX_TERMS).map((g, i, all) => {
    const last = i === all.length - 1 && !g.phrase;
    const prefix = (w: string, j: number) => last && j === g.words.length - 1 && w.length >= MIN_SUBSTRING;
    g.words.forEach((w, j) => words.push({ lexeme: w, prefix: prefix(w, j) }));
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
    terms: words.slice(0, MAX_TERMS),
    marks,
  };
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A short piece of `text` around its longest match (the first of them), in pieces: the matches and the text between. */
export function snippetOf(text: string, marks: readonly string[]): SnippetPiece[] {
  const flat = text.replace(/\s+/g, ' ').trim();
  const spans = matchSpans(flat, marks);
  const longest = spans.reduce<[number, number] | undefined>(
    (best, span) => (!best || span[1] - span[0] > best[1] - best[0] ? span : best),
    undefined,
  );
  const from = Math.max(0, (longest?.[0] ?? 0) - SNIPPET_RADIUS);
  const to = Math.min(flat.length, (longest?.[1] ?? 0) + SNIPPET_RADIUS);
  const pieces: SnippetPiece[] = [];
  const add = (piece: string, match: boolean) => {
    const last = pieces.at(-1);
    if (!piece) return;
    if (last && !last.match && !match) last.text += piece;
    else pieces.push({ text: piece, match });
  };
  add(from > 0 ? '…' : '', false);
  let cursor = from;
  for (const [s, e] of spans.filter(([s, e]) => s >= from && e <= to)) {
    add(flat.slice(cursor, s), false);
    add(flat.slice(s, e), true);
    cursor = e;
  }
  add(flat.slice(cursor, to), false);
  add(to < flat.length ? '…' : '', false);
  return pieces;
}

export interface SearchScope {
  /** The videos the searcher may see; undefined: every video (staff). */
  videoIds?: readonly string[];
  courseId?: string;
}

type ScoreOf = (
  text: SQL | typeof searchEntries.text,
  words: SQL | typeof searchEntries.words,
) => SQL<number>;

type Candidate = {
  id: string;
  videoId: string;
  courseId: string | null;
  title: string;
  t: number;
  source: SearchSource;
  text: string;
  score: number;
  /** The video's matches (its place on the page). */
  matches: number;
};

/** Videos read for a page: twice what a page can show, as some fail the phrase check. */
const TOP_VIDEOS = 2 * Math.ceil(MAX_SEARCH_HITS / HITS_PER_VIDEO);
/** A video's first moments checked against the whole query (phrases, order). */
const MOMENTS_PER_VIDEO = 4 * HITS_PER_VIDEO;
/** The same when words of a phrase meet in entries that are not the phrase, and a page is not full. */
const DEEPER_MOMENTS_PER_VIDEO = 20 * MOMENTS_PER_VIDEO;

/**
 * The best hits for `input` among the scope's videos, at most MAX_SEARCH_HITS: videos by how many
 * of their entries match, each with its best HITS_PER_VIDEO hits of its first MOMENTS_PER_VIDEO.
 * An input with nothing searchable answers no hits.
 *
 * Its cost follows the number of videos, not of entries (docs/SEARCH.md, "A query"): the words are
 * looked up in `search_terms` (a row per word, video and source with the seconds it is said or
 * shown), which picks the videos and their moments; only those entries are read, and checked with
 * the whole query (`words @@ tsquery`: phrases, order). A word said in every lecture of a large
 * school holds a hundred thousand entries and a thousand such rows; ranking its entries took
 * seconds. Input with punctuation (`res.status(404)`) is a phrase of PostgreSQL's own tokens
 * (`res.status` is one to its parser). The literal text (pg_trgm) is a second way in only when
 * words found nothing: a part of a word (`Interval` in `setInterval`). Wherever it matches, the
 * literal text ranks a hit higher within its video.
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
  const literalIn = (text: SQL | typeof searchEntries.text): SQL =>
    like ? sql`lower(${text}) like ${like} escape '\\'` : sql`false`;
  const literalHit = literalIn(searchEntries.text);
  /** How well an entry matches: 1 for the literal text, plus full text's rank. */
  const scoreOf: ScoreOf = (text, words) => sql<number>`(case when ${literalIn(text)} then 1.0 else 0.0 end)
    + ${query ? sql`ts_rank(${words}, ${query})` : sql`0.0`}`;
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
  const idList = videoIds && uuidArray(videoIds);
  const columns = {
    id: searchEntries.id,
    videoId: searchEntries.videoId,
    courseId: videos.courseId,
    title: videos.title,
    t: searchEntries.startSeconds,
    source: searchEntries.source,
    text: searchEntries.text,
    score: scoreOf(searchEntries.text, searchEntries.words),
  };

  const rows: Candidate[] = await db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('statement_timeout', ${String(SEARCH_TIMEOUT_MS)}, true)`);
    const terms = parsed.punctuated ? await tokensOf(tx, parsed.literal!) : parsed.terms;
    let found =
      query && terms.length ? await byTerms(tx, terms, query, idList, scoreOf, MOMENTS_PER_VIDEO) : [];
    // Words that meet without being the phrase: look further into each video before giving up.
    if (query && terms.length > 1 && found.length < MAX_SEARCH_HITS)
      found = await byTerms(tx, terms, query, idList, scoreOf, DEEPER_MOMENTS_PER_VIDEO);
    if (found.length > 0 || !like) return found;
    // Parts of words: the trigram index, when words found nothing. Through that index always (a
    // sequential scan that stops at the limit looks cheap to the planner, but reads the whole table
    // when the searcher's videos lie late in it), with the scope checked on the rows it finds
    // (`::text`: a bitmap of every entry of the searcher's videos costs more than the search).
    await tx.execute(sql`select set_config('enable_seqscan', 'off', true)`);
    const more = await tx
      .select(columns)
      .from(searchEntries)
      .innerJoin(videos, eq(videos.id, searchEntries.videoId))
      .where(
        and(literalHit, idList ? sql`${searchEntries.videoId}::text = any(${idList}::text[])` : undefined),
      )
      .limit(TOP_VIDEOS * MOMENTS_PER_VIDEO);
    return more.map((r) => ({ ...r, matches: 0 }));
  });
  const byVideo = new Map<string, Candidate[]>();
  for (const row of rows) byVideo.set(row.videoId, [...(byVideo.get(row.videoId) ?? []), row]);
  const best = (list: Candidate[]) => Math.max(...list.map((r) => r.score));
  const matches = (list: Candidate[]) => Math.max(...list.map((r) => r.matches));
  return [...byVideo.values()]
    .sort(
      (a, b) => matches(b) - matches(a) || best(b) - best(a) || a[0]!.videoId.localeCompare(b[0]!.videoId),
    )
    .flatMap((list) =>
      list
        .sort((a, b) => b.score - a.score || a.t - b.t)
        .slice(0, HITS_PER_VIDEO)
        .sort((a, b) => a.t - b.t),
    )
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

/** PostgreSQL's own tokens of `text` (how `to_tsvector('simple')` splits it), as exact terms. */
async function tokensOf(db: Db, text: string): Promise<Term[]> {
  const rows = await rowsOf<{ lexeme: string }>(
    db,
    sql`select unnest(tsvector_to_array(to_tsvector('simple', ${text}))) as lexeme`,
  );
  return rows.slice(0, MAX_TERMS).map((r) => ({ lexeme: r.lexeme, prefix: false }));
}

/**
 * The entries holding every term, through `search_terms`: the TOP_VIDEOS videos with the most
 * such entries, their first `momentsPerVideo` moments holding every term, and of those the entries
 * that match `query` as a whole.
 */
async function byTerms(
  db: Db,
  terms: readonly Term[],
  query: SQL,
  idList: string | undefined,
  scoreOf: ScoreOf,
  momentsPerVideo: number,
): Promise<Candidate[]> {
  const holds = terms.map((t) =>
    t.prefix ? sql`${searchTerms.lexeme} like ${`${t.lexeme}%`}` : sql`${searchTerms.lexeme} = ${t.lexeme}`,
  );
  const anyTerm = sql`(${sql.join(holds, sql` or `)})`;
  const everyTerm = sql.join(
    holds.map((h) => sql`bool_or(${h})`),
    sql` and `,
  );
  const inScope = idList ? sql`and ${searchTerms.videoId} = any(${idList}::uuid[])` : sql``;
  const rows = await rowsOf<Candidate>(
    db,
    sql`
    with top as (
      select ${searchTerms.videoId} as video_id, sum(cardinality(${searchTerms.starts}))::int as matches
        from ${searchTerms}
       where ${anyTerm} ${inScope}
       group by ${searchTerms.videoId}
      having ${everyTerm}
       order by matches desc, video_id
       limit ${TOP_VIDEOS}
    ), moments as (
      select ${searchTerms.videoId} as video_id, ${searchTerms.source} as source, m.t,
             row_number() over (partition by ${searchTerms.videoId} order by m.t, ${searchTerms.source}) as n
        from ${searchTerms} join top on top.video_id = ${searchTerms.videoId}, unnest(${searchTerms.starts}) as m(t)
       where ${anyTerm}
       group by ${searchTerms.videoId}, ${searchTerms.source}, m.t
      having ${everyTerm}
    ), picked as materialized (
      -- A fence: the moments' entries are read through the video index, and only they are checked
      -- against the query (not every entry the query's words index holds).
      select e.id, e.video_id, e.start_seconds, e.source, e.text, e.words
        from moments
        join ${searchEntries} e on e.video_id = moments.video_id and e.source = moments.source
                             and e.start_seconds = moments.t
       where moments.n <= ${momentsPerVideo}
    )
    select picked.id, picked.video_id as "videoId", ${videos.courseId} as "courseId", ${videos.title} as title,
           picked.start_seconds as t, picked.source, picked.text, ${scoreOf(sql`picked.text`, sql`picked.words`)} as score, top.matches
      from picked
      join top on top.video_id = picked.video_id
      join ${videos} on ${videos.id} = picked.video_id
     where picked.words @@ ${query}`,
  );
  return rows.map((r) => ({
    ...r,
    t: Number(r.t),
    score: Number(r.score),
    matches: Number(r.matches),
  }));
}
