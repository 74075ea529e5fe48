/**
 * Search inside lectures (issue 29, docs/SEARCH.md): caption cues, text on screen and machine
 * speech, each with its time. A snippet is the hit's text in pieces: the matches and the text between.
 * Zod-free, so the student pages can read these without loading zod (the schemas are in search.ts).
 */
export const SEARCH_SOURCES = ['captions', 'screen', 'speech'] as const;
export type SearchSource = (typeof SEARCH_SOURCES)[number];

/** Longest query read; a longer one is a 400. */
export const MAX_SEARCH_QUERY = 200;
/** Most hits an answer holds, best first. */
export const MAX_SEARCH_HITS = 50;

export const searchMessages = {
  queryInvalid: `Type between 1 and ${MAX_SEARCH_QUERY} characters to search.`,
  tooMany: 'Too many searches. Please wait a minute and try again.',
  timeInvalid: 't must be a number of seconds.',
  failed: 'Search failed. Please try again.',
  indexQueued: 'Indexing queued.',
  indexBusy: 'This video is already queued or being indexed.',
  indexNotReady: 'The video is not packaged yet: it is indexed once it is.',
  tooManyReindex: 'Too many re-index requests. Please wait a minute and try again.',
  tooManyStills: 'Too many search result pictures made for you. Please try again in a few minutes.',
  stillsBusy: 'Too many search result pictures are being made right now. Please try again in a few seconds.',
} as const;
