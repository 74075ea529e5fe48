import { z } from 'zod';
import { EntityId, requiredText, Thumbnail } from './courses';
import { videoFields } from './media';
import { adminMessages, validation } from './messages';
import { studentNameFields } from './students';

export const MAX_STUDENTS_PER_CALL = 5_000;

const VideoTitle = requiredText(adminMessages.videoTitle, 200);
const VideoDescription = requiredText(adminMessages.videoDescription, 5_000);

/** A course picked in a form: an id, or a one-element array of one (SPEC.md's `courses`); blank means none. */
const CourseChoice = z
  .preprocess(
    (v) => (Array.isArray(v) && v.length <= 1 ? (v[0] ?? null) : v),
    z.string({ error: adminMessages.oneCourse }).nullish(),
  )
  .transform((id) => id?.trim() || null);

const StudentIds = z
  .array(z.string().trim().min(1, validation.noStudents), { error: validation.noStudents })
  .min(1, validation.noStudents)
  .max(MAX_STUDENTS_PER_CALL, `At most ${MAX_STUDENTS_PER_CALL} students at once.`);

/**
 * POST /video/upload: the metadata of an upload the streamer has finalized (`url` from its answer).
 * `duration` is accepted and ignored: the server keeps the probed one.
 */
export const VideoUploadBody = z.object({
  title: VideoTitle,
  description: VideoDescription,
  thumbnail: Thumbnail,
  url: z.string({ error: validation.videoFile }).trim().min(1, validation.videoFile),
  duration: z.unknown().optional(),
  rollnos: z
    .array(z.string().trim().min(1))
    .max(MAX_STUDENTS_PER_CALL)
    .nullish()
    .transform((v) => v ?? []),
  courses: CourseChoice,
});
export type VideoUploadBody = z.infer<typeof VideoUploadBody>;

/** The video's own `course` object, as an edit form may send it back, counts as its id. */
const courseObjectToId = (v: unknown) =>
  v !== null && typeof v === 'object' && '_id' in v ? (v as { _id: unknown })._id : v;

/** POST /video/update. `course`: an id to (re)assign, null or '' to unassign, absent to keep. */
export const VideoUpdateBody = z.object({
  videoId: EntityId('videoId'),
  title: VideoTitle,
  description: VideoDescription,
  thumbnail: Thumbnail,
  course: z
    .preprocess(courseObjectToId, z.string({ error: adminMessages.oneCourse }).nullable().optional())
    .transform((v) => (v === undefined ? undefined : v?.trim() || null)),
});
export type VideoUpdateBody = z.infer<typeof VideoUpdateBody>;

/** POST /video/grant and POST /video/revoke. */
export const VideoAccessBody = z.object({ videoId: EntityId('videoId'), studentIds: StudentIds });
export type VideoAccessBody = z.infer<typeof VideoAccessBody>;

/** POST /delete/video. */
export const DeleteVideoBody = z.object({ videoId: EntityId('videoId') });

/** POST /students/access: the course's students split by access to the video. */
export const StudentsAccessBody = z.object({ videoId: EntityId('videoId'), courseId: EntityId('courseId') });

/** A student in dropdowns (SPEC.md section 3). */
export const DropdownStudent = z.strictObject({ _id: z.string(), ...studentNameFields });
export type DropdownStudent = z.infer<typeof DropdownStudent>;

export const VideoStatus = z.enum(['processing', 'ready', 'failed']);
export type VideoStatus = z.infer<typeof VideoStatus>;

/** A course as a video names it. */
export const CourseRef = z.strictObject({ _id: z.string(), name: z.string(), batch: z.number().int() });

/** A video as admins see it (SPEC.md section 3 plus its processing state). */
export const AdminVideo = z.strictObject({
  ...videoFields,
  /** The admin's thumbnail, else the poster extracted from the video. */
  thumbnail: z.string(),
  /** The admin's own thumbnail or null: the edit screen shows 'Not uploaded' for null. */
  customThumbnail: z.string().nullable(),
  course: CourseRef.optional(),
  deleteUrl: z.string(),
  status: VideoStatus,
  failureReason: z.string().nullable(),
  sourceName: z.string(),
});
export type AdminVideo = z.infer<typeof AdminVideo>;

export const VideosResponse = z.strictObject({ videos: z.array(AdminVideo) });

/** POST /students/access's answer: the course's students split by access to the video. */
export const VideoAccessSplit = z.strictObject({
  studentsWithAccess: z.array(DropdownStudent),
  studentsWithoutAccess: z.array(DropdownStudent),
});
export type VideoAccessSplit = z.infer<typeof VideoAccessSplit>;
