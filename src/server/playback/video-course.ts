import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { videos } from '../db/schema';

/** The course a video belongs to now (a session keeps it, should the video move later). */
export async function videoCourseOf(db: Db, videoId: string): Promise<string | null> {
  const [row] = await db
    .select({ courseId: videos.courseId })
    .from(videos)
    .where(eq(videos.id, videoId))
    .limit(1);
  return row?.courseId ?? null;
}
