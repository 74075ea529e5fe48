import type { SecretContext } from '../videos/video-secrets';
import { inputArgs, type MediaTools } from '../storage/ffmpeg';
import { renditionSegmentAt } from './packaging/rendition-reader';
import { mediaKeys, renditionName, type MediaStore } from '../storage';

/** A still's width in pixels (its height keeps the picture's shape). */
export const STILL_WIDTH = 320;
/** A still is a small JPEG: anything larger than this is not one of ours. */
const STILL_MAX_BYTES = 512 * 1024;

/**
 * One JPEG, STILL_WIDTH wide, of second `t` of a video (a search hit's still, a question's frame):
 * from its source while the store keeps it, else from the one segment of the highest rendition
 * without forensic variants that plays then, decrypted. Never a forensic variant, never a student's
 * canvas: no watermark, no session code. Undefined when there is nothing to take it from.
 */
export async function takeStill(
  ctx: SecretContext,
  tools: MediaTools,
  store: MediaStore,
  video: { id: string; renditions: number[] },
  t: number,
  options: { signal: AbortSignal; lowPriority?: boolean },
): Promise<Buffer | undefined> {
  const output = [
    '-frames:v',
    '1',
    '-vf',
    `scale=${STILL_WIDTH}:-2`,
    '-q:v',
    '5',
    '-f',
    'image2',
    '-c:v',
    'mjpeg',
    '-',
  ];
  let still: Buffer;
  if (await store.head(mediaKeys.source(video.id))) {
    // Seeking before the input: a fast seek in the source.
    const input = await store.toolInput(mediaKeys.source(video.id));
    still = await tools.ffmpegOutput(['-ss', t.toFixed(3), ...inputArgs(input), ...output], options);
  } else {
    const segment = await segmentAt(ctx, store, video, t);
    if (!segment) return undefined;
    // Seeking after the input: a segment's timestamps do not start at 0 (decoding a few seconds is cheap).
    still = await tools.ffmpegOutput(
      [...inputArgs('-', 'mpegts'), '-ss', segment.offset.toFixed(3), ...output],
      {
        ...options,
        stdin: (async function* () {
          yield segment.bytes;
        })(),
      },
    );
  }
  return still.length > 0 && still.length <= STILL_MAX_BYTES ? still : undefined;
}

/** The segment playing at `t` in the highest rendition without forensic variants. */
async function segmentAt(
  ctx: SecretContext,
  store: MediaStore,
  video: { id: string; renditions: number[] },
  t: number,
) {
  for (const height of [...video.renditions].sort((a, b) => b - a)) {
    const segment = await renditionSegmentAt(ctx, store, video.id, renditionName(height), t);
    if (segment) return segment;
  }
  return undefined;
}
