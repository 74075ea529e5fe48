/** The learning domain's job types, added to the queue's typed registry. */
declare module '../jobs/types' {
  interface JobPayloads {
    /** Takes the small frame of a question's moment from the source or the top rendition. */
    'learning.frame': { questionId: string };
    /** Mails staff one digest of the questions asked since the last one (hourly, when there are any). */
    'learning.digest': Record<string, never>;
    /** Mails one staff member the digest that was refused for them while the others went out. */
    'learning.digest-resend': { staffId: string; questionIds: string[] };
  }
}

export const FRAME_ATTEMPTS = 3;
/** The staff's digest of new questions goes out once an hour, when there are any. */
export const DIGEST_EVERY_MS = 60 * 60_000;
/** One frame at a time per worker: a short ffmpeg run, but the cores are shared with packaging. */
export const LEARNING_TYPE_LIMITS = { 'learning.frame': 1 } as const;

export {};
