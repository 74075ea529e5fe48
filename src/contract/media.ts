import { z } from 'zod';
import { VideoProgress } from './progress-schema';

/** The streamer's and the student video API's contract (ARCHITECTURE.md "Media pipeline"). */

export const mediaMessages = {
  fileNameRequired: 'fileName is required.',
  fileNameInvalid:
    'fileName must be a plain file name: no "..", slashes or control characters, at most 255 bytes.',
  startInvalid: 'start must be a whole number of bytes.',
  checksumInvalid: 'checksum must look like sha256=<base64>.',
  checksumMismatch: 'The chunk does not match its checksum; it was discarded. Send it again.',
  fileMissing: 'The chunk has no file part.',
  fieldsFirst: 'Send the fileName and start fields before the file part.',
  wrongOffset: 'start does not match the bytes already received.',
  busy: 'Another request is writing to this upload. Try again when it has finished.',
  sizeInvalid: 'size must be a whole number of bytes.',
  sizeMismatch: 'The chunk is not as long as its size field says; it was discarded. Send it again.',
  storageUnavailable: 'The media storage is unavailable at the moment. Please try again shortly.',
  tooLarge: (maxBytes: number) => `The video is larger than the limit of ${formatBytes(maxBytes)}.`,
  chunkTooLarge: 'The chunk is too large.',
  noUpload: 'No upload with this file name. Upload the file first.',
  emptyUpload: 'The upload is empty.',
  notAVideo: 'The file is not a video we can read. Upload an MP4 or MKV file.',
  noVideoStream: 'The file has no video stream.',
  unsupportedContainer: 'Only MP4 and MKV videos are accepted.',
  noDuration: 'The video has no readable duration.',
  videoNotFound: 'Video not found.',
  stillProcessing: 'This video is still being prepared. Please try again in a moment.',
  processingFailed: 'This video could not be prepared for playback.',
  noVideoAccess: 'You do not have access to this video.',
  noCourseAccess: 'Your access to this course has expired or been revoked.',
  badToken: 'This playback link is invalid or has expired. Reload the page.',
  sessionMismatch: 'This playback link belongs to another session. Reload the page.',
  tooManyKeys: 'Playback was paused: this session asked for video keys faster than a player does.',
  keyUnreadable:
    "This video cannot play on this server: its keys do not open with the server's signing key. The administrator can see why with `npm run cli -- doctor`.",
  mediaDeleted: 'The video files were deleted.',
  deleted: 'Video files deleted.',
  deleteQueued: 'The media storage is unavailable: the video files will be deleted as soon as it is back.',
} as const;

function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`;
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** An upload's label: only a name shown to people; the server picks the storage name. */
export const UploadFileName = z
  .string({ error: mediaMessages.fileNameRequired })
  .min(1, mediaMessages.fileNameRequired)
  .refine(
    (name) =>
      !name.includes('..') &&
      !/[/\\]/.test(name) &&
      !CONTROL.test(name) &&
      name.trim() === name &&
      new TextEncoder().encode(name).length <= 255,
    mediaMessages.fileNameInvalid,
  );

/** The multipart fields of POST /stream/upload-chunk (the `file` part travels beside them). */
export const UploadChunkFields = z.object({
  fileName: UploadFileName,
  start: z
    .string({ error: mediaMessages.startInvalid })
    .regex(/^\d{1,16}$/, mediaMessages.startInvalid)
    .transform(Number),
  /** The file part's length in bytes, sent before it: lets an S3 store stream the part through unbuffered. */
  size: z
    .string({ error: mediaMessages.sizeInvalid })
    .regex(/^\d{1,16}$/, mediaMessages.sizeInvalid)
    .transform(Number)
    .optional(),
  checksum: z
    .string()
    .regex(/^sha256=[A-Za-z0-9+/]{43}=$/, mediaMessages.checksumInvalid)
    .transform((v) => v.slice('sha256='.length))
    .optional(),
});
export type UploadChunkFields = z.infer<typeof UploadChunkFields>;

export const UploadStatusQuery = z.object({ fileName: UploadFileName });

/** Answer of upload-chunk and upload-status; also the body of a 409 next to `message`. */
export const UploadOffsetResponse = z.strictObject({ offset: z.number().int().min(0) });
export type UploadOffsetResponse = z.infer<typeof UploadOffsetResponse>;

/** `mm:ss` or `hh:mm:ss` (SPEC.md section 3). */
export const Duration = z.string().regex(/^(\d{2}:)?\d{2}:\d{2}$/);

/** Answer of POST /stream/upload (finalize). */
export const FinalizeUploadResponse = z.strictObject({
  url: z.string(),
  deleteUrl: z.string(),
  /** Probed from the file. */
  duration: Duration,
});
export type FinalizeUploadResponse = z.infer<typeof FinalizeUploadResponse>;

/** POST /stream/upload names the upload in its `filename` header (percent-encoding allowed, for names beyond ASCII). */
export const FinalizeUploadHeaders = z.object({
  filename: z.preprocess((raw) => {
    if (typeof raw !== 'string' || !raw.includes('%')) return raw;
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw; // not percent-encoding after all: take it as it is
    }
  }, UploadFileName),
});

export const CourseIdBody = z.object({
  courseId: z.uuid({ error: 'courseId must be a course id.' }),
});

/** The fields of a video every viewer sees (SPEC.md section 3). */
export const videoFields = {
  _id: z.string(),
  title: z.string(),
  description: z.string(),
  thumbnail: z.string(),
  url: z.string(),
  duration: Duration,
};

/** A video in the student's course player (SPEC.md section 3). */
export const StudentVideo = z.strictObject({
  ...videoFields,
  /** Where the student is in this video (beyond the spec: resume and completion ticks). */
  progress: VideoProgress,
});
export type StudentVideo = z.infer<typeof StudentVideo>;

export const StudentVideosResponse = z.strictObject({ videos: z.array(StudentVideo) });
export type StudentVideosResponse = z.infer<typeof StudentVideosResponse>;

export const RollnoResponse = z.strictObject({ rollno: z.string() });
export type RollnoResponse = z.infer<typeof RollnoResponse>;
