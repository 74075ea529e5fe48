import { FfmpegError, inputArgs, type MediaTools } from '../storage/ffmpeg';
import { DETECT_FPS, DETECT_HEIGHT, DETECT_WIDTH, FRAME_BYTES } from './detector';

/**
 * The detector's view of a video: its luma at DETECT_WIDTH x DETECT_HEIGHT, DETECT_FPS frames a
 * second from t = 0, decoded by ffmpeg (FFMPEG_PATH) at low CPU priority. `input` is a file, or `-`
 * with `stdin` and `format` (an MPEG-TS stream assembled from segments). Rejects when ffmpeg finds
 * no video. `onDecoded` hears the seconds of video decoded so far as they come.
 */
export async function decodeLuma(
  tools: MediaTools,
  input: string,
  options: {
    stdin?: AsyncIterable<Buffer>;
    format?: string;
    signal?: AbortSignal;
    onDecoded?: (seconds: number) => void;
  } = {},
): Promise<Uint8Array> {
  const { onDecoded } = options;
  try {
    const frames = await tools.ffmpegOutput(
      [
        ...inputArgs(input, options.format),
        '-map',
        '0:v:0',
        '-vf',
        `fps=${DETECT_FPS}:start_time=0,scale=${DETECT_WIDTH}:${DETECT_HEIGHT}:flags=area,format=gray`,
        '-f',
        'rawvideo',
        '-',
      ],
      {
        stdin: options.stdin,
        signal: options.signal,
        lowPriority: true,
        onOutput: onDecoded && ((bytes) => onDecoded(Math.floor(bytes / FRAME_BYTES) / DETECT_FPS)),
      },
    );
    return new Uint8Array(frames);
  } catch (error) {
    if (error instanceof FfmpegError && !options.signal?.aborted)
      throw new Error(`could not decode the video: ${error.message}`, { cause: error });
    throw error;
  }
}
