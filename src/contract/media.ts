import { z } from 'zod';
import type { VideoProgress } from './progress';

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
  mediaDeleted: 'The video files were deleted.',
  deleted: 'Video files deleted.',
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
  checksum: z
    .string()
    .regex(/^sha256=[A-Za-z0-9+/]{43}=$/, mediaMessages.checksumInvalid)
    .transform((v) => v.slice('sha256='.length))
    .optional(),
});
export type UploadChunkFields = z.infer<typeof UploadChunkFields>;

export const UploadStatusQuery = z.object({ fileName: UploadFileName });

/** Answer of upload-chunk and upload-status; also the body of a 409 next to `message`. */
export interface UploadOffsetResponse {
  offset: number;
}

/** Answer of POST /stream/upload (finalize). */
export interface FinalizeUploadResponse {
  url: string;
  deleteUrl: string;
  /** mm:ss or hh:mm:ss, probed from the file. */
  duration: string;
}

export const CourseIdBody = z.object({
  courseId: z.uuid({ error: 'courseId must be a course id.' }),
});

/** A video in the student's course player (SPEC.md section 3). */
export interface StudentVideo {
  _id: string;
  title: string;
  description: string;
  thumbnail: string;
  url: string;
  duration: string;
  /** Where the student is in this video (beyond the spec: resume and completion ticks). */
  progress: VideoProgress;
}

export interface StudentVideosResponse {
  videos: StudentVideo[];
}

export interface RollnoResponse {
  rollno: string;
}
