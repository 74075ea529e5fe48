import type { courses, videos } from '../db/schema';
import { videoDeleteUrl, videoPosterUrl, videoUrl } from './stream-urls';
import { thumbnailUrl } from '../thumbnails/store';

/** `mm:ss`, or `hh:mm:ss` from an hour on (SPEC.md section 3). */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.round(totalSeconds));
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = s % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  return hh > 0 ? `${two(hh)}:${two(mm)}:${two(ss)}` : `${two(mm)}:${two(ss)}`;
}

type VideoRow = Pick<
  typeof videos.$inferSelect,
  'id' | 'title' | 'description' | 'thumbnail' | 'durationSeconds'
>;
type CourseRow = Pick<typeof courses.$inferSelect, 'id' | 'name' | 'batch'>;

/** A video as students see it (SPEC.md section 3): the admin thumbnail, else the frame extracted at packaging. */
export function presentVideo(video: VideoRow) {
  return {
    _id: video.id,
    title: video.title,
    description: video.description,
    thumbnail: video.thumbnail ? thumbnailUrl(video.thumbnail) : videoPosterUrl(video.id),
    url: videoUrl(video.id),
    duration: formatDuration(video.durationSeconds),
  };
}

/** A video as admins see it: the student fields plus its course, delete URL and processing state. */
export function presentAdminVideo(
  video: VideoRow & Pick<typeof videos.$inferSelect, 'status' | 'failureReason' | 'sourceName'>,
  course: CourseRow | null,
) {
  return {
    ...presentVideo(video),
    /** The admin's own upload, or null ("Not uploaded"), as the edit screens need to tell. */
    customThumbnail: video.thumbnail ? thumbnailUrl(video.thumbnail) : null,
    course: course ? { _id: course.id, name: course.name, batch: course.batch } : undefined,
    deleteUrl: videoDeleteUrl(video.id),
    status: video.status,
    failureReason: video.failureReason,
    sourceName: video.sourceName,
  };
}
