import { mediaMessages } from '../../../contract/media';
import type { AppContext } from '../../context';
import { uploads, videos } from '../../db/schema';
import { HttpError, notFound, unprocessable } from '../../errors';
import { enqueueJob } from '../../jobs/queue';
import type { MediaTools, ProbeResult } from '../../storage/ffmpeg';
import { PACKAGE_ATTEMPTS, PACKAGE_PRIORITY } from '../job-types';
import { mediaKeys } from '../../storage';
import { uploadRef, type UploadStore } from './upload-store';
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
 * Turns a complete upload into a `processing` video (id = the upload's storage name, so its source
 * never moves in a bucket) and queues its packaging in the same transaction. An upload ffprobe
 * cannot use is deleted and answered with 422 and the reason. Safe to repeat after a failure at any
 * step: the store's `complete` accepts an upload it completed before.
 */
export async function finalizeUpload(
  ctx: AppContext,
  deps: { store: UploadStore; tools: MediaTools },
  owner: { id: string },
  label: string,
): Promise<FinalizedUpload> {
  const { store, tools } = deps;
  return store.withLock(
    owner.id,
    label,
    async (upload) => {
      if (upload.offset === 0) {
        await store.remove(upload);
        throw unprocessable(mediaMessages.emptyUpload);
      }
      const media = ctx.media.of(upload.store);
      const videoId = upload.storageName;
      const source = mediaKeys.source(videoId);
      try {
        await media.uploads.complete(uploadRef(upload));
      } catch (error) {
        if (error instanceof HttpError && error.statusCode === 422) await store.remove(upload);
        throw error;
      }
      const probe = await tools.probe(await media.toolInput(source));
      const reason = unusableReason(probe);
      if (reason) {
        await store.remove(upload);
        await media.delete(source);
        throw unprocessable(reason);
      }
      const now = ctx.clock.now();
      await ctx.db.transaction(async (tx) => {
        await tx.insert(videos).values({
          id: videoId,
          title: titleFromLabel(label),
          sourceName: label,
          sizeBytes: upload.offset,
          durationSeconds: probe!.durationSeconds,
          status: 'processing',
          store: upload.store,
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
      return { videoId, durationSeconds: probe!.durationSeconds };
    },
    () => notFound(mediaMessages.noUpload),
  );
}
