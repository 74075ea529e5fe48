import { createStudent } from './accounts/users';
import type { AppContext } from './context';
import { courses, enrollments } from './db/schema';

export interface DemoAccounts {
  student: { username: string; password: string };
  courseId: string;
  courseName: string;
}

const COURSE_NAME = 'Welcome to Lectern';

/** A demo course and an enrolled demo student, so a newcomer has something to sign in to. */
export async function seedDemo(ctx: AppContext): Promise<DemoAccounts> {
  const now = ctx.clock.now();
  const day = 86_400_000;
  const isoDate = (t: number) => new Date(t).toISOString().slice(0, 10);
  return ctx.db.transaction(async (tx) => {
    const [course] = await tx
      .insert(courses)
      .values({
        batch: 1,
        courseCode: 'DEMO101',
        name: COURSE_NAME,
        description:
          'A short tour of the course player: sample lectures with the watermark, playlist, speed and keyboard controls.',
        startDate: isoDate(now.getTime() - 7 * day),
        endDate: isoDate(now.getTime() + 90 * day),
      })
      .returning({ id: courses.id });
    const student = await createStudent(tx, {
      rollno: 'DEMO-001',
      name: 'Demo Student',
      email: 'student@lectern.local',
      username: 'student',
    });
    await tx.insert(enrollments).values({
      courseId: course!.id,
      studentId: student.id,
      accessExpiration: new Date(now.getTime() + 365 * day),
    });
    return {
      student: { username: student.username, password: student.generatedPassword! },
      courseId: course!.id,
      courseName: COURSE_NAME,
    };
  });
}
