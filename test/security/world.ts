import { readFile } from 'node:fs/promises';
import { eq, inArray } from 'drizzle-orm';
import { createStudent } from '../../src/server/accounts/users';
import { PNG_DATA_URL } from '../support/course-fixtures';
import { users } from '../../src/server/db/schema';
import { makeClip, MediaTestServer, uploadVideo } from '../support/media-kit';
import type { TestServerOptions } from '../support/test-server';

/** Who calls a route in the matrix and the fuzzer. */
export const ROLES = [
  'anonymous',
  'student',
  'firstLogin',
  'otherCourse',
  'revoked',
  'admin',
  'instructorOfThisCourse',
  'instructorOfAnotherCourse',
] as const;
export type Role = (typeof ROLES)[number];
/** The two instructors (staff scoped to the courses an admin assigned them). */
export const INSTRUCTOR_ROLES = ['instructorOfThisCourse', 'instructorOfAnotherCourse'] as const;
export type InstructorRole = (typeof INSTRUCTOR_ROLES)[number];

export interface Person {
  id: string;
  rollno: string;
  name: string;
  email: string;
  username: string;
  password: string;
}

export interface PlayableVideo {
  id: string;
  /** The master playlist URL (relative). */
  url: string;
}

/**
 * A small school with one signed-in session per role:
 * - course A holds lecture A1 (packaged); `student` is enrolled and granted it, `firstLogin` is
 *   enrolled and granted it but has not reset the password, `revoked` was granted it and then lost
 *   the course;
 * - course B holds lecture B1, granted to `otherCourse` only;
 * - course C and student `spare` are targets for admin writes that must not disturb the others;
 * - `instructorOfThisCourse` teaches courses A and C (lecture A1, the spare video's course),
 *   `instructorOfAnotherCourse` only course B; both signed in with their second factor, as admins are.
 */
export interface World {
  media: MediaTestServer;
  url: string;
  /** The session token of each role (none for anonymous). */
  tokens: Record<Role, string | undefined>;
  people: Record<Exclude<Role, 'anonymous' | 'admin'> | 'spare', Person>;
  admin: { id: string; username: string; email: string };
  instructors: Record<InstructorRole, { id: string; username: string; email: string }>;
  courseA: string;
  courseB: string;
  courseC: string;
  a1: PlayableVideo;
  b1: PlayableVideo;
  /** URL path of course A's thumbnail image. */
  thumbnail: string;
  /** The clip the videos were made from (the matrix uploads it once more). */
  clip: Buffer;
}

const PASSWORD = 'Matrix@12345';

const PEOPLE = {
  student: {
    rollno: 'MXS-7101',
    name: 'Sitara Quenby',
    email: 'sitara.quenby@school.test',
    username: 'squenby',
  },
  firstLogin: {
    rollno: 'MXF-7202',
    name: 'Farrow Ilsted',
    email: 'farrow.ilsted@school.test',
    username: 'filsted',
  },
  otherCourse: {
    rollno: 'MXO-7303',
    name: 'Odalys Brannock',
    email: 'odalys.brannock@school.test',
    username: 'obrannock',
  },
  revoked: {
    rollno: 'MXR-7404',
    name: 'Rhett Vantongeren',
    email: 'rhett.vantongeren@school.test',
    username: 'rvantongeren',
  },
  spare: {
    rollno: 'MXX-7505',
    name: 'Xanthe Polgrave',
    email: 'xanthe.polgrave@school.test',
    username: 'xpolgrave',
  },
} as const;

async function signIn(
  media: MediaTestServer,
  path: string,
  username: string,
  password: string,
): Promise<string> {
  const client = media.server.client();
  const res = await client.post(path, { username, password });
  if (res.status !== 200 || !client.token)
    throw new Error(`${path} ${username}: ${res.status} ${JSON.stringify(res.body)}`);
  return client.token;
}

/** Builds the world on a fresh server (student opening hours on, clock inside them). */
export async function buildWorld(options: TestServerOptions): Promise<World> {
  const media = await MediaTestServer.start(options);
  const server = media.server;
  const { client: adminClient, admin } = await server.adminClient();
  const post = async (path: string, body: unknown) => {
    const res = await adminClient.post(path, body);
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };

  const people = {} as World['people'];
  for (const [role, who] of Object.entries(PEOPLE) as [
    keyof typeof PEOPLE,
    (typeof PEOPLE)[keyof typeof PEOPLE],
  ][]) {
    const created = await createStudent(server.ctx.db, { ...who, password: PASSWORD });
    people[role] = { ...who, id: created.id, password: PASSWORD };
  }
  await server.ctx.db
    .update(users)
    .set({ firstLogin: false })
    .where(inArray(users.id, [people.student.id, people.otherCourse.id, people.revoked.id]));

  const course = async (coursecode: string, name: string, thumbnail?: string) =>
    (
      await post('/api/admin/course/create', {
        batch: 9,
        coursecode,
        name,
        description: `${name}: lectures and projects.`,
        startdate: '2026-01-05',
        enddate: '2026-12-18',
        thumbnail,
      })
    ).course as { _id: string; thumbnail: string };
  const a = await course('MXA', 'Matrix Course A', PNG_DATA_URL);
  const b = await course('MXB', 'Matrix Course B');
  const c = await course('MXC', 'Matrix Course C');
  for (const who of [people.student, people.firstLogin, people.revoked]) {
    await post('/api/admin/course/grantaccess', { courseId: a._id, studentId: who.id, days: 30 });
  }
  await post('/api/admin/course/grantaccess', {
    courseId: b._id,
    studentId: people.otherCourse.id,
    days: 30,
  });

  const clipFile = await makeClip({ seconds: 2 });
  const packaged = async (fileName: string, courseId: string, rollnos: string[]): Promise<PlayableVideo> => {
    const { videoId, body } = await uploadVideo(adminClient, clipFile, fileName);
    await post('/api/admin/video/upload', {
      title: fileName,
      description: 'A lecture.',
      url: body.url,
      courses: courseId,
      rollnos,
    });
    const row = await media.settled(videoId);
    if (row.status !== 'ready') throw new Error(`${fileName} did not package: ${row.failureReason}`);
    return { id: videoId, url: body.url };
  };
  const [a1, b1] = await Promise.all([
    packaged('a1.mp4', a._id, [people.student.rollno, people.firstLogin.rollno, people.revoked.rollno]),
    packaged('b1.mp4', b._id, [people.otherCourse.rollno]),
  ]);
  await post('/api/admin/course/revokeaccess', {
    courseId: a._id,
    studentId: people.revoked.id,
    accessrevokedreason: 'Fees pending',
  });

  const thisCourse = await server.instructorClient([a._id, c._id]);
  const anotherCourse = await server.instructorClient([b._id]);

  const [adminRow] = await server.ctx.db
    .select({ email: users.email })
    .from(users)
    .where(eq(users.id, admin.id));
  const tokens: World['tokens'] = {
    anonymous: undefined,
    admin: adminClient.token,
    student: await signIn(media, '/api/signin', people.student.username, PASSWORD),
    firstLogin: await signIn(media, '/api/signin', people.firstLogin.username, PASSWORD),
    otherCourse: await signIn(media, '/api/signin', people.otherCourse.username, PASSWORD),
    revoked: await signIn(media, '/api/signin', people.revoked.username, PASSWORD),
    instructorOfThisCourse: thisCourse.client.token,
    instructorOfAnotherCourse: anotherCourse.client.token,
  };
  return {
    media,
    url: server.url,
    tokens,
    people,
    admin: { id: admin.id, username: admin.username, email: adminRow!.email },
    instructors: {
      instructorOfThisCourse: thisCourse.instructor,
      instructorOfAnotherCourse: anotherCourse.instructor,
    },
    courseA: a._id,
    courseB: b._id,
    courseC: c._id,
    a1,
    b1,
    thumbnail: a.thumbnail,
    clip: await readFile(clipFile),
  };
}
