/** The search index's job type, added to the queue's typed registry. */
declare module '../jobs/types' {
  interface JobPayloads {
    /**
     * Indexes one video for search: its caption cues, its text on screen (OCR) and its speech
     * (SPEECH_COMMAND). `force` starts over; otherwise a source already done is left as it is and
     * one part-way resumes where it stopped.
     */
    'search.index': { videoId: string; force?: boolean };
  }
}

/** Behind packaging (10), before the ladder (0): the source is still there to read. */
export const SEARCH_PRIORITY = 5;
export const SEARCH_ATTEMPTS = 3;
/** One video at a time per worker: OCR is slow and runs at the lowest CPU priority. */
export const SEARCH_TYPE_LIMITS = { 'search.index': 1 } as const;

export {};
