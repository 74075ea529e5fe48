import { z } from 'zod';
import { MAX_SEARCH_QUERY, SEARCH_SOURCES, searchMessages } from './search-limits';

// The limits, marks and messages live in a zod-free module so that the student pages can read them
// without loading zod; the server's imports of them from here are unchanged.
export {
  MAX_SEARCH_HITS,
  MAX_SEARCH_QUERY,
  SEARCH_SOURCES,
  searchMessages,
  type SearchSource,
} from './search-limits';

export const SearchQuery = z.object({
  q: z
    .string({ error: searchMessages.queryInvalid })
    .max(MAX_SEARCH_QUERY, searchMessages.queryInvalid)
    .refine((q) => q.trim().length > 0, searchMessages.queryInvalid),
  courseId: z.string().max(64).optional(),
});
export type SearchQuery = z.infer<typeof SearchQuery>;

/**
 * A piece of a hit's snippet: a match of the query or the text between, as written (pieces, not
 * marks in the text, so no character of the text can read as a mark).
 */
export const SnippetPiece = z.strictObject({ text: z.string(), match: z.boolean() });
export type SnippetPiece = z.infer<typeof SnippetPiece>;

export const SearchHit = z.strictObject({
  videoId: z.string(),
  courseId: z.string().nullable(),
  title: z.string(),
  /** Seconds from the start of the video. */
  t: z.number(),
  source: z.enum(SEARCH_SOURCES),
  snippet: z.array(SnippetPiece),
  /**
   * A small picture of that moment (`GET /api/videos/:videoId/frame?t=SECOND`, with the video's own
   * access rule); null when there is none to show.
   */
  frameUrl: z.string().nullable(),
});
export type SearchHit = z.infer<typeof SearchHit>;

export const SearchResponse = z.strictObject({ hits: z.array(SearchHit) });
export type SearchResponse = z.infer<typeof SearchResponse>;

export const ScreenTextQuery = z.object({
  t: z.coerce.number({ error: searchMessages.timeInvalid }).min(0).max(1e7),
});
/**
 * The screen text in force at `t` (its reading's start as `t`), '' when none; `until` is when this
 * answer stops holding (null: nothing follows), so a player asks again only past it.
 */
export const ScreenTextResponse = z.strictObject({
  t: z.number(),
  until: z.number().nullable(),
  text: z.string(),
});
export type ScreenTextResponse = z.infer<typeof ScreenTextResponse>;

/** A hit's still: the whole second its entry starts at. */
export const FrameQuery = z.object({
  t: z.coerce.number({ error: searchMessages.timeInvalid }).int(searchMessages.timeInvalid).min(0).max(1e7),
});
/** The URL of a hit's still (the route checks access and that an entry starts at that second). */
export const frameUrlOf = (videoId: string, t: number) =>
  `/api/videos/${encodeURIComponent(videoId)}/frame?t=${Math.floor(t)}`;

export const AdminSearchQuery = z.object({ q: SearchQuery.shape.q });

export const SEARCH_INDEX_STATUSES = ['queued', 'running', 'done', 'failed', 'off'] as const;
export const SourceIndexState = z.strictObject({
  source: z.enum(SEARCH_SOURCES),
  status: z.enum(SEARCH_INDEX_STATUSES),
  /** 0..1 */
  progress: z.number(),
  entries: z.number().int(),
  error: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type SourceIndexState = z.infer<typeof SourceIndexState>;
export const VideoIndexResponse = z.strictObject({
  videoId: z.string(),
  sources: z.array(SourceIndexState),
});
export type VideoIndexResponse = z.infer<typeof VideoIndexResponse>;
