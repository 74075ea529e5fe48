/** The live domain's job types (reminder mails), added to the queue's typed registry. */
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
  }
}

/** How often the reminders due are looked for. */
export const LIVE_MAILS_EVERY_MS = 60_000;

export {};
