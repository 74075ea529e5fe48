import { describe, expect, it } from 'vitest';
import type { CourseAccessListEntry } from '../../src/contract/courses';
import { testEngines } from '../support/databases';
import { courseBody, createCourseVia, insertFinalizedVideo } from '../support/course-fixtures';
import { burst, jsonPost, type RawReply } from '../support/raw-http';
import { suiteAdmin, suiteServer } from '../support/test-server';

/**
 * The same admin write, sent 30 times at once (a double click, a retrying proxy, two tabs): each
 * answer is a success or a 409 with its reason, never a 500, and the data ends as one write
 * would leave it. Checked on each engine, since PGlite and PostgreSQL race differently.
 */
const COPIES = 30;

const statuses = (replies: RawReply[]) => [...new Set(replies.map((r) => r.status))].sort();

describe.each(testEngines())(
  'the same admin write %s times at once (%s)'.replace('%s', String(COPIES)),
  (engine) => {
    const server = suiteServer({ engine });
    const admin = suiteAdmin(server);

    const all = (path: string, body: unknown) =>
      burst(
        server.url,
        Array.from({ length: COPIES }, () => jsonPost(server.url, path, body, admin.token)),
      );

    it('course create: one course, the others told the code is taken', async () => {
      const body = courseBody();
      const replies = await all('/api/admin/course/create', body);
      expect(statuses(replies)).toEqual(replies.some((r) => r.status === 409) ? [200, 409] : [200]);
      expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
      for (const r of replies.filter((r) => r.status === 409))
        expect(JSON.parse(r.body).message).toBeTruthy();
    });

    it('video update: every copy succeeds and the video holds the new details', async () => {
      const course = await createCourseVia(admin);
      const video = await insertFinalizedVideo(server);
      const replies = await all('/api/admin/video/update', {
        videoId: video.id,
        title: 'Closures, again',
        description: 'The same edit from two tabs.',
        course: course._id,
      });
      expect(statuses(replies)).toEqual([200]);
      const list = await admin.get('/api/admin/video/editlist');
      expect(JSON.stringify(list.body)).toContain('Closures, again');
    });

    it('student create: one account, the others told the username is taken', async () => {
      const replies = await all('/api/admin/students', {
        rollno: 'CC001',
        name: 'Asha Verma',
        email: 'asha.concurrent@example.com',
      });
      expect(statuses(replies)).toEqual(replies.some((r) => r.status === 409) ? [201, 409] : [201]);
      expect(replies.filter((r) => r.status === 201)).toHaveLength(1);
    });

    it('course access grant: every copy succeeds and the student has one access row', async () => {
      const course = await createCourseVia(admin);
      const student = await server.createActiveStudent();
      const replies = await all('/api/admin/course/grantaccess', {
        courseId: course._id,
        studentId: student.id,
        days: 30,
      });
      expect(replies.every((r) => r.status === 200)).toBe(true);
      const list = await admin.get(`/api/admin/course/accesslist?courseId=${course._id}`);
      const entries: CourseAccessListEntry[] = list.body.courseAccessList;
      // Exactly one: none would be a grant lost to the race, two a duplicate.
      expect(
        entries.flatMap((entry) => entry.students.filter((s) => s.studentid === student.id)),
      ).toMatchObject([{ studentid: student.id, accessrevoked: false }]);
    });
  },
);
