import { z } from 'zod';
import { IsoTime, MessageResponse } from './auth';
import { EntityId } from './courses';
import { NewAdmin } from './students';

/** At most this many courses are named in one assignment. */
export const MAX_INSTRUCTOR_COURSES = 200;

/** The courses an instructor teaches: ids, the whole set (an assignment replaces the previous one). */
export const InstructorCourseIds = z
  .array(EntityId('courseId'))
  .max(MAX_INSTRUCTOR_COURSES)
  .transform((ids) => [...new Set(ids)]);

/**
 * POST /api/admin/instructors (and the CLI's create-instructor). No password: the instructor chooses
 * it, and sets up their second factor, through the one-time link mailed to them.
 */
export const NewInstructor = NewAdmin.omit({ password: true }).extend({
  courseIds: InstructorCourseIds.default([]),
});
export type NewInstructor = z.infer<typeof NewInstructor>;

/** POST /api/admin/instructors/:userId/courses. */
export const AssignCoursesBody = z.object({ courseIds: InstructorCourseIds });

export const InstructorIdParam = z.object({ userId: z.string() });

export const InstructorCourse = z.strictObject({ _id: z.string(), name: z.string(), coursecode: z.string() });

export const InstructorEntry = z.strictObject({
  _id: z.string(),
  username: z.string(),
  email: z.string(),
  name: z.string(),
  createdAt: IsoTime,
  lastSignInAt: IsoTime.nullable(),
  courses: z.array(InstructorCourse),
});
export type InstructorEntry = z.infer<typeof InstructorEntry>;

export const InstructorListResponse = z.strictObject({ instructors: z.array(InstructorEntry) });
export type InstructorListResponse = z.infer<typeof InstructorListResponse>;

/** A created instructor (the message says whether their set-up link was mailed). */
export const InstructorCreatedResponse = MessageResponse.extend({ instructor: InstructorEntry });

export const InstructorSavedResponse = MessageResponse.extend({ instructor: InstructorEntry });

export const instructorMessages = {
  created:
    'Instructor created. A set-up link was mailed to them: with it they choose a password and set up two-step sign-in.',
  createdNotMailed:
    'Instructor created, but the set-up link could not be mailed. Check the mail settings, then send a new link with mfa:reset on the command line.',
  assigned: 'Courses saved.',
  removed: 'Instructor removed.',
  notFound: 'Instructor not found.',
  unknownCourse: 'One of the courses does not exist.',
  /** An instructor asked for a course, video or question outside the courses they teach. */
  otherCourse: 'This belongs to a course you do not teach.',
  /** Granting a video to students is the admins' (video access). */
  noGrants: 'Only an admin grants videos to students.',
} as const;
