/** The live domain's job types (reminder mails, the recording's packaging), added to the queue's typed registry. */
declare module '../jobs/types' {
  interface JobPayloads {
    /** Mails the reminders due (24 h and 1 h before a class) and updates of classes moved since. */
    'live.mails': Record<string, never>;
    /** Mails a cancelled class's CANCEL to the students whose calendar holds it. */
    'live.cancel': {
      classId: string;
      courseId: string;
      videoId: string;
      title: string;
      description: string;
      startsAt: string;
      minutes: number;
      /** When it was deleted: the CANCEL's SEQUENCE and DTSTAMP. */
      deletedAt: string;
    };
    /**
     * Packages an ended class's recording as uploads are (recording.ts): the normal ladder, poster,
     * forensic variants and search index, replacing the live renditions in place.
     */
    'live.recording': { classId: string; videoId: string };
  }
}

/** How often the reminders due are looked for. */
export const LIVE_MAILS_EVERY_MS = 60_000;

/** Behind a new upload's first rendition (10): the recording already plays as its live renditions. */
export const RECORDING_PRIORITY = 0;
export const RECORDING_ATTEMPTS = 3;
/** One recording at a time per worker: it encodes the whole ladder (as the ladder job's lane). */
export const LIVE_TYPE_LIMITS = { 'live.recording': 1 } as const;

export {};
