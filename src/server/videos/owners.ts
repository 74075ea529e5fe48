import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { isUuid } from '../db/ids';
import { checkpoints, courses, liveClasses, questions, videos } from '../db/schema';
import type { Owner, OwnerLookup } from '../http/staff-scope';
import { videoIdFromUrl } from './stream-urls';

/**
 * Whom each kind of resource a staff route names belongs to (http/staff-scope.ts checks it): one
 * indexed read per id; an id that is not a uuid names nothing.
 */
export function resourceOwners(db: Db): OwnerLookup {
  const video = async (id: string): Promise<Owner | undefined> => {
    if (!isUuid(id)) return undefined;
    const [row] = await db
      .select({ courseId: videos.courseId, createdBy: videos.createdBy })
      .from(videos)
      .where(eq(videos.id, id))
      .limit(1);
    return row;
  };
  return {
    video,
    upload: (url) => video(videoIdFromUrl(url) ?? ''),
    course: async (id) => {
      if (!isUuid(id)) return undefined;
      const [row] = await db
        .select({ courseId: courses.id })
        .from(courses)
        .where(eq(courses.id, id))
        .limit(1);
      return row;
    },
    // A question is its video's.
    question: async (id) => {
      if (!isUuid(id)) return undefined;
      const [row] = await db
        .select({ courseId: videos.courseId, createdBy: videos.createdBy })
        .from(questions)
        .innerJoin(videos, eq(videos.id, questions.videoId))
        .where(eq(questions.id, id))
        .limit(1);
      return row;
    },
    // A checkpoint too.
    checkpoint: async (id) => {
      if (!isUuid(id)) return undefined;
      const [row] = await db
        .select({ courseId: videos.courseId, createdBy: videos.createdBy })
        .from(checkpoints)
        .innerJoin(videos, eq(videos.id, checkpoints.videoId))
        .where(eq(checkpoints.id, id))
        .limit(1);
      return row;
    },
    // A live class is its course's (docs/LIVE.md).
    'live-class': async (id) => {
      if (!isUuid(id)) return undefined;
      const [row] = await db
        .select({ courseId: liveClasses.courseId })
        .from(liveClasses)
        .where(eq(liveClasses.id, id))
        .limit(1);
      return row;
    },
  };
}
