import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, stat, truncate } from 'node:fs/promises';
import { mediaMessages } from '../../../contract/media';
import type { AppContext } from '../../context';
import { uploads, videos } from '../../db/schema';
import { notFound, unprocessable } from '../../errors';
import { enqueueJob } from '../../jobs/queue';
import type { MediaTools, ProbeResult } from '../ffmpeg';
import { PACKAGE_ATTEMPTS, PACKAGE_PRIORITY } from '../job-types';
import type { MediaPaths } from '../storage';
import type { UploadStore } from './upload-store';
import { eq } from 'drizzle-orm';

export interface FinalizedUpload {
  videoId: string;
  durationSeconds: number;
}

/** Why ffprobe's view of a file makes it unusable, or undefined when it is a video we can package. */
export function unusableReason(probe: ProbeResult | undefined): string | undefined {
  if (!probe) return mediaMessages.notAVideo;
  if (!/(^|,)(mp4|mov|matroska)(,|$)/.test(probe.formatName)) return mediaMessages.unsupportedContainer;
  if (!probe.video || !probe.video.width || !probe.video.height) return mediaMessages.noVideoStream;
  if (!Number.isFinite(probe.durationSeconds) || probe.durationSeconds <= 0) return mediaMessages.noDuration;
  return undefined;
}

/** `Lecture 3.mp4` -> `Lecture 3`: the label without its extension is the video's first title. */
export const titleFromLabel = (label: string) => label.replace(/\.[^.]+$/, '') || label;

/**
 * Turns a complete upload into a `processing` video and queues its packaging in the same transaction.
 * An upload ffprobe cannot use is deleted and answered with 422 and the reason.
 */
export async function finalizeUpload(
  ctx: AppContext,
  deps: { store: UploadStore; tools: MediaTools; paths: MediaPaths },
  owner: { id: string },
  label: string,
): Promise<FinalizedUpload> {
  const { store, tools, paths } = deps;
  return store.withLock(owner.id, label, async () => {
    const upload = await store.find(owner.id, label);
    if (!upload) throw notFound(mediaMessages.noUpload);
    const file = paths.upload(upload.storageName);
    const size = (await stat(file).catch(() => undefined))?.size ?? 0;
    if (upload.offset === 0 || size < upload.offset) {
      await store.remove(upload);
      throw unprocessable(mediaMessages.emptyUpload);
    }
    // Unacknowledged bytes of an interrupted chunk are not part of the video.
    if (size > upload.offset) await truncate(file, upload.offset);

    const probe = await tools.probe(file);
    const reason = unusableReason(probe);
    if (reason) {
      await store.remove(upload);
      throw unprocessable(reason);
    }

    const videoId = randomUUID();
    const source = paths.source(videoId);
    await mkdir(paths.sources, { recursive: true });
    await rename(file, source);
    try {
      const now = ctx.clock.now();
      await ctx.db.transaction(async (tx) => {
        await tx.insert(videos).values({
          id: videoId,
          title: titleFromLabel(label),
          sourceName: label,
          sizeBytes: upload.offset,
          durationSeconds: probe!.durationSeconds,
          status: 'processing',
          createdBy: owner.id,
          createdAt: now,
          updatedAt: now,
        });
        await tx.delete(uploads).where(eq(uploads.id, upload.id));
        await enqueueJob(
          tx,
          'media.package',
          { videoId },
          { priority: PACKAGE_PRIORITY, runAt: now, maxAttempts: PACKAGE_ATTEMPTS },
        );
      });
    } catch (error) {
      // The upload stays resumable and finalizable: put its bytes back where its row says.
      await rename(source, file).catch(() => rm(source, { force: true }));
      throw error;
    }
    return { videoId, durationSeconds: probe!.durationSeconds };
  });
}
