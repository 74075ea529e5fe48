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
  /** One read by id; an id that is not a uuid names nothing, unread. */
  const byId =
    (read: (id: string) => Promise<Owner[]>) =>
    async (id: string): Promise<Owner | undefined> =>
      isUuid(id) ? (await read(id))[0] : undefined;
  const videoOwner = { courseId: videos.courseId, createdBy: videos.createdBy };
  /** A resource that hangs off a video (a question, a checkpoint) is its video's. */
  const ofItsVideo = (table: typeof questions | typeof checkpoints) =>
    byId((id) =>
      db
        .select(videoOwner)
        .from(table)
        .innerJoin(videos, eq(videos.id, table.videoId))
        .where(eq(table.id, id))
        .limit(1),
    );
  const video = byId((id) => db.select(videoOwner).from(videos).where(eq(videos.id, id)).limit(1));
  return {
    video,
    upload: (url) => video(videoIdFromUrl(url) ?? ''),
    course: byId((id) =>
      db.select({ courseId: courses.id }).from(courses).where(eq(courses.id, id)).limit(1),
    ),
    question: ofItsVideo(questions),
    checkpoint: ofItsVideo(checkpoints),
    // A live class is its course's (docs/LIVE.md).
    'live-class': byId((id) =>
      db.select({ courseId: liveClasses.courseId }).from(liveClasses).where(eq(liveClasses.id, id)).limit(1),
    ),
  };
}
