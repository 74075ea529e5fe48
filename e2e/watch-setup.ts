import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { startLectern, type Lectern } from './lectern';
import { lightTextOnly, readText } from './ocr';
import { activateStudent, AdminApi, makeLectureClip, type CreatedStudent } from './student-setup';

/**
 * The text tesseract reads in a PNG (./ocr.ts), enlarged twice in gray first: tesseract reads small
 * screen text far better that way. `whiteTextOnly` keeps just the pure white pixels (a caption's
 * letters): bright video behind the caption's translucent box otherwise bleeds into the letters and
 * tesseract misreads them, depending on the (random) test clip.
 */
export async function ocr(
  png: Buffer,
  name: string,
  { whiteTextOnly = false, only }: { whiteTextOnly?: boolean; only?: string } = {},
): Promise<string> {
  const file = path.join(tmpdir(), `lectern-ocr-${process.pid}-${name}.png`);
  await writeFile(file, png);
  const filters = ['scale=iw*2:ih*2:flags=lanczos', 'format=gray'];
  if (whiteTextOnly) filters.push(lightTextOnly(249));
  return readText(file, filters.join(','), only);
}

/** Signs a student in through the API, in the page's cookie jar. */
export async function signInStudent(page: Page, lectern: Lectern, student: CreatedStudent): Promise<void> {
  const res = await page.request.post(`${lectern.url}/api/signin`, {
    data: { username: student.username, password: student.password },
  });
  expect(res.ok()).toBe(true);
}

export interface OneVideoClass {
  lectern: Lectern;
  admin: AdminApi;
  courseId: string;
  /** Signed up, past the first-login reset and enrolled for 30 days. */
  students: CreatedStudent[];
  /** Granted to the students whose roll numbers were listed in `watchers` (all by default). */
  videoId: string;
}

/** A running Lectern with one course, its students and one ready video (a 20 s clip unless `video.file`). */
export async function startOneVideoClass(spec: {
  course: { name: string; description: string; coursecode: string };
  students: [rollno: string, name: string][];
  video: { title: string; description: string; file?: string };
  watchers?: string[];
  /** Extra settings for the server (e.g. METRICS_TOKEN). */
  env?: Record<string, string>;
}): Promise<OneVideoClass> {
  const lectern = await startLectern(spec.env);
  const admin = await AdminApi.signIn(lectern);
  const courseId = (await admin.createCourse(spec.course))._id;
  const students: CreatedStudent[] = [];
  for (const [rollno, name] of spec.students) {
    const student = await admin.addStudent(rollno, name);
    await activateStudent(lectern, student, 'Learner@2026');
    await admin.grantCourse(courseId, student.id, { days: 30 });
    students.push(student);
  }
  const { file, ...video } = spec.video;
  const videoId = await admin.uploadVideo(file ?? (await makeLectureClip(20)), {
    ...video,
    courseId,
    rollnos: spec.watchers ?? students.map((s) => s.rollno),
  });
  return { lectern, admin, courseId, students, videoId };
}
