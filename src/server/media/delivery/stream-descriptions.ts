import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import type { AppContext } from '../../context';
import type { MediaTools } from '../../storage/ffmpeg';
import type { StreamDescription } from '../packaging/codecs';
import { describeSegment, PLAYLIST } from '../packaging/hls';
import { decryptSegment, firstSegmentOf, segmentKey } from '../packaging/segment-keys';
import { mediaKeys, readText, renditionName, type MediaStore } from '../../storage';

/** Finds the CODECS and FRAME-RATE of a rendition packaged before they were recorded. */
export type DescribeStored = (
  store: MediaStore,
  videoId: string,
  height: number,
) => Promise<StreamDescription>;

/**
 * For renditions packaged before packaging recorded CODECS and FRAME-RATE: the first read of their
 * master playlist decrypts the first segment into scratch and probes it once (a few hundred ms,
 * once per rendition); PlaylistStore then saves the answer in the rendition's info.json.
 * Chosen over a one-off job: no scan of every video at start, no job to schedule, and no cached
 * master playlist on other nodes to invalidate; a video restored from an old backup heals the same way.
 */
export function describeStored(ctx: AppContext, tools: MediaTools): DescribeStored {
  const { scratch } = ctx.media;
  const describe: DescribeStored = async (store, videoId, height) => {
    const rendition = renditionName(height);
    const playlist = await readText(store, mediaKeys.videoFile(videoId, rendition, PLAYLIST));
    const first = playlist && firstSegmentOf(playlist);
    if (!first) return {};
    const read = await store.read(mediaKeys.videoFile(videoId, rendition, first.file));
    if (!read?.body) return {};
    const pieces: Buffer[] = [];
    for await (const piece of read.body) pieces.push(piece as Buffer);
    let bytes: Buffer = Buffer.concat(pieces);
    if (first.period !== undefined) {
      const key = await segmentKey(ctx, videoId, first.period);
      if (!key) return {};
      bytes = decryptSegment(bytes, key, first.sequence);
    }
    await scratch.ensure();
    const file = scratch.path(`${videoId}.describe-${randomUUID()}.ts`);
    try {
      await writeFile(file, bytes);
      return await describeSegment(tools, file);
    } finally {
      await rm(file, { force: true });
    }
  };
  // The playlist plays without the attributes: a failed probe must never fail it.
  return (store, videoId, height) =>
    describe(store, videoId, height).catch((error: unknown) => {
      ctx.logger.warn({ err: error, videoId, height }, 'could not probe a packaged rendition for CODECS');
      return {};
    });
}
