import { execFile } from 'node:child_process';
import { mkdir, readFile, rename, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { TestClient } from '../test/support/http-client';
import { setupLinkToken } from '../test/support/setup-link';
import type { Lectern } from './lectern';

const run = promisify(execFile);

/**
 * A short grayscale clip (Game of Life, so every frame differs) with a tone, made by ffmpeg once
 * per machine: grayscale means any red pixel on the player's canvas is the watermark.
 */
export async function makeLectureClip(seconds = 12): Promise<string> {
  const dir = path.join(tmpdir(), 'lectern-e2e-clips');
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `life-${seconds}s.mp4`);
  if (await stat(file).catch(() => null)) return file;
  const temp = `${file}.${process.pid}.tmp`;
  await run('ffmpeg', [
    '-v', 'error', '-y',
    '-f', 'lavfi', '-i', 'life=s=64x36:mold=10:rate=25:ratio=0.2:death_color=#202020:life_color=#d8d8d8,scale=320:180:flags=neighbor,format=yuv420p',
    '-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`,
    '-t', String(seconds),
    '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '30', '-pix_fmt', 'yuv420p', '-g', '25',
    '-c:a', 'aac', '-b:a', '48k', '-shortest', '-f', 'mp4', temp,
  ]); // prettier-ignore
  await rename(temp, file);
  return file;
}

/** A 640x360 PNG gradient between two colours (hex, no #) as a data URL, as the admin forms send thumbnails. */
export async function makeThumbnail(from: string, to: string): Promise<string> {
  const dir = path.join(tmpdir(), 'lectern-e2e-clips');
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `thumb-${from}-${to}.png`);
  await run('ffmpeg', [
    '-v', 'error', '-y',
    '-f', 'lavfi', '-i', `gradients=s=640x360:c0=0x${from}:c1=0x${to}:x0=0:y0=0:x1=640:y1=360:d=1`,
    '-frames:v', '1', file,
  ]); // prettier-ignore
  return `data:image/png;base64,${(await readFile(file)).toString('base64')}`;
}

export interface CreatedStudent {
  id: string;
  rollno: string;
  username: string;
  email: string;
  /** The initial password, read from the account mail. */
  password: string;
}

/** The admin API of a running Lectern, driven over HTTP as the back office does. */
export class AdminApi {
  private constructor(
    private readonly lectern: Lectern,
    readonly client: TestClient,
  ) {}

  static async signIn(lectern: Lectern): Promise<AdminApi> {
    const client = new TestClient(lectern.url);
    const res = await client.adminLogin({ username: 'admin', password: lectern.adminPassword });
    if (res.status !== 200) throw new Error(`admin login failed: ${res.status} ${JSON.stringify(res.body)}`);
    return new AdminApi(lectern, client);
  }

  private async call<T = any>(path: string, body: unknown, expect = [200, 201]): Promise<T> {
    const res = await this.client.post(path, body);
    if (!expect.includes(res.status)) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as T;
  }

  async createCourse(fields: {
    name: string;
    description: string;
    coursecode: string;
    batch?: number;
    thumbnail?: string;
  }) {
    const body = await this.call('/api/admin/course/create', {
      batch: 12,
      startdate: '2026-01-05',
      enddate: '2026-12-18',
      ...fields,
    });
    return body.course as { _id: string; name: string };
  }

  /** An instructor of `courseIds` (POST /api/admin/instructors, which wants a fresh second factor). */
  async createInstructor(username: string, password: string, courseIds: string[]) {
    await this.client.proveFactor();
    const email = `${username}@staff.example`;
    const before = this.lectern.smtp.mails.length;
    await this.call('/api/admin/instructors', {
      username,
      email,
      name: `${username} (instructor)`,
      courseIds,
    });
    // They choose the password through the link mailed to them; the factor is set up at sign-in.
    const token = setupLinkToken((await this.lectern.smtp.waitFor(email, before)).text);
    const setup = await new TestClient(this.lectern.url).post('/api/admin/setup', {
      token,
      newPassword: password,
    });
    if (setup.status !== 200) throw new Error(`set-up link of ${username}: ${setup.status}`);
    return { username, password };
  }

  /** Adds a student the way an admin does; the initial password comes from the mail they receive. */
  async addStudent(rollno: string, name: string): Promise<CreatedStudent> {
    const email = `${rollno.toLowerCase()}@students.example`;
    const before = this.lectern.smtp.mails.length;
    const body = await this.call('/api/admin/students', { rollno, name, email });
    const mail = await this.lectern.smtp.waitFor(email, before);
    const password = mail.text.match(/Initial password: (\S+)/)?.[1];
    if (!password) throw new Error(`no initial password in the mail to ${email}`);
    return { id: body.student._id, rollno, username: body.student.username, email, password };
  }

  async grantCourse(
    courseId: string,
    studentId: string,
    grant: { days: number } | { accessexpiration: string },
  ) {
    await this.call('/api/admin/course/grantaccess', { courseId, studentId, ...grant });
  }

  async revokeCourse(courseId: string, studentId: string, reason: string) {
    await this.call('/api/admin/course/revokeaccess', { courseId, studentId, accessrevokedreason: reason });
  }

  /** Uploads `file` in one chunk, names it, assigns it to the course and grants it to `rollnos`; waits until it plays. */
  async uploadVideo(
    file: string,
    meta: { title: string; description: string; courseId: string; rollnos: string[] },
  ) {
    const fileName = `${meta.title.replace(/[^\w]+/g, '-')}.mp4`;
    const form = new FormData();
    form.set('fileName', fileName);
    form.set('start', '0');
    form.set('file', new Blob([await readFile(file)], { type: 'video/mp4' }), fileName);
    const chunk = await this.client.request('POST', '/stream/upload-chunk', { body: form });
    if (chunk.status !== 200) throw new Error(`upload-chunk: ${chunk.status} ${JSON.stringify(chunk.body)}`);
    const done = await this.client.request('POST', '/stream/upload', { headers: { filename: fileName } });
    if (done.status !== 200) throw new Error(`finalize: ${done.status} ${JSON.stringify(done.body)}`);
    const saved = await this.call('/api/admin/video/upload', {
      title: meta.title,
      description: meta.description,
      url: done.body.url,
      courses: meta.courseId,
      rollnos: meta.rollnos,
    });
    const videoId = saved.video._id as string;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const list = await this.client.get('/api/admin/video/editlist');
      const video = list.body.videos.find((v: { _id: string }) => v._id === videoId);
      if (video?.status === 'ready') return videoId;
      if (video?.status === 'failed') throw new Error(`packaging failed: ${video.failureReason}`);
      if (Date.now() > deadline) throw new Error('the video was not ready within 60 s');
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/** Takes a new student through the first-login reset over the API, so they can sign in with `password`. */
export async function activateStudent(
  lectern: Lectern,
  student: CreatedStudent,
  password: string,
): Promise<void> {
  const client = new TestClient(lectern.url);
  const before = lectern.smtp.mails.length;
  const signIn = await client.post('/api/signin', { username: student.username, password: student.password });
  if (signIn.status !== 200)
    throw new Error(`sign-in failed: ${signIn.status} ${JSON.stringify(signIn.body)}`);
  await lectern.smtp.waitFor(student.email, before);
  const otp = lectern.smtp.latestCode(student.email);
  const reset = await client.post('/api/password/reset', { otp, newpassword: password });
  if (reset.status !== 200) throw new Error(`reset failed: ${reset.status} ${JSON.stringify(reset.body)}`);
  student.password = password;
}
