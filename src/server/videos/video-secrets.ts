import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { videos } from '../db/schema';

/**
 * A secret the video's row keeps as hex text, as bytes: its forensic-mark secret, or the single
 * HLS key of a video packaged before key rotation. Undefined when the video or the secret is missing.
 */
export async function videoSecret(
  db: Db,
  videoId: string,
  secret: 'forensicSecret' | 'hlsKey',
): Promise<Buffer | undefined> {
  const [row] = await db.select({ hex: videos[secret] }).from(videos).where(eq(videos.id, videoId)).limit(1);
  return row?.hex ? Buffer.from(row.hex, 'hex') : undefined;
}
