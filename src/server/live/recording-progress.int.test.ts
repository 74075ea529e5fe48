import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { AdminLiveClass } from '../../contract/live';
import { jobs, liveClasses } from '../db/schema';
import { claimJob, completeJob, failJob } from '../jobs/queue';
import { testEngines } from '../../../test/support/databases';
import { createCourseVia, enrolVia, scheduleClassVia } from '../../../test/support/course-fixtures';
import { suiteAdmin, suiteServer } from '../../../test/support/test-server';
import { queueRecording } from './recording';
import { saveRecordingProgress } from './recording-progress';

/** 15:30 in Asia/Kolkata on the suite's day: inside opening hours. */
const AFTERNOON = '2026-03-02T10:00:00.000Z';

/**
 * The recording's packaging as the staff's answers show it (docs/LIVE.md "The recording"): the state
 * is the `live.recording` job's own row, the step the one the job saved on the class. The job's
 * queue functions move it here as the runner would, without ffmpeg (live-recording.int runs the
 * real packaging).
 */
describe.each(testEngines())("a live class's recording progress (%s)", (engine) => {
  const server = suiteServer({ engine });
  const admin = suiteAdmin(server);
  const now = () => server.clock.now();

  /** A class that ended with a stream: its recording job queued as ingest.ts's end queues it. */
  async function endedClass(courseId: string, title: string) {
    const res = await scheduleClassVia(admin, courseId, AFTERNOON, { title });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const live = res.body as AdminLiveClass;
    expect(live.recording).toBeNull();
    const jobId = await server.ctx.db.transaction(async (tx) => {
      await tx
        .update(liveClasses)
        .set({ status: 'ended', endedAt: now() })
        .where(eq(liveClasses.id, live._id));
      return queueRecording(tx, live._id, live.videoId);
    });
    return { live, jobId };
  }

  async function recordingOf(classId: string) {
    const res = await admin.get('/api/admin/live-classes');
    expect(res.status).toBe(200);
    return (res.body.classes as AdminLiveClass[]).find((c) => c._id === classId)!.recording;
  }

  /** The runner's claim of the next job: only ours are queued in this suite. */
  async function claim(jobId: string) {
    const job = await claimJob(server.ctx.db, 'worker-1', now(), 60_000);
    expect(job?.id).toBe(jobId);
    return job!;
  }

  it('shows the step the job reports, a failed attempt while it waits again, and the end', async () => {
    const course = await createCourseVia(admin);
    const { live, jobId } = await endedClass(course._id, 'Closures, live');
    expect(await recordingOf(live._id)).toEqual({ state: 'waiting' });

    let job = await claim(jobId);
    expect(await recordingOf(live._id)).toEqual({ state: 'packaging' });
    await saveRecordingProgress(server.ctx.db, live._id, { step: 'source' });
    expect(await recordingOf(live._id)).toEqual({ state: 'packaging', step: 'source' });
    await saveRecordingProgress(server.ctx.db, live._id, { step: 'renditions', part: 2, parts: 3 });
    expect(await recordingOf(live._id)).toEqual({
      state: 'packaging',
      step: 'renditions',
      part: 2,
      parts: 3,
    });

    // The attempt fails and the queue keeps the job for another: it waits, saying why.
    await failJob(server.ctx.db, job, 'S3 said 503 Slow Down\n    at PutObject (stack)', now(), false);
    expect(await recordingOf(live._id)).toEqual({ state: 'waiting', message: 'S3 said 503 Slow Down' });

    // The next attempt starts its steps afresh (recording.ts clears them first), then finishes.
    server.clock.advance(60_000);
    job = await claim(jobId);
    await saveRecordingProgress(server.ctx.db, live._id, null);
    expect(await recordingOf(live._id)).toEqual({ state: 'packaging' });
    await saveRecordingProgress(server.ctx.db, live._id, { step: 'search index' });
    expect(await recordingOf(live._id)).toEqual({ state: 'packaging', step: 'search index' });
    await completeJob(server.ctx.db, job.id, now());
    expect(await recordingOf(live._id)).toEqual({ state: 'done' });
  });

  it('shows a job that gave up as failed with its reason, and one that is gone', async () => {
    const course = await createCourseVia(admin);
    const { live, jobId } = await endedClass(course._id, 'Arrays, live');
    const job = await claim(jobId);
    await saveRecordingProgress(server.ctx.db, live._id, { step: 'marked renditions' });
    await failJob(server.ctx.db, job, 'ffprobe found no readable video stream in the recording', now(), true);
    expect(await recordingOf(live._id)).toEqual({
      state: 'failed',
      message: 'ffprobe found no readable video stream in the recording',
    });

    // A job removed by hand leaves the class saying so, not packaging for ever (the list would poll).
    await server.ctx.db.delete(jobs).where(eq(jobs.id, jobId));
    expect(await recordingOf(live._id)).toEqual({ state: 'failed', message: 'The packaging job is gone.' });
  });

  it("is the staff's only: a student's list of the course's classes has no recording", async () => {
    const course = await createCourseVia(admin);
    const { client: student, student: s } = await server.studentClient();
    await enrolVia(admin, course._id, [s.id]);
    const { live } = await endedClass(course._id, 'Hooks, live');
    expect(await recordingOf(live._id)).toEqual({ state: 'waiting' });

    const list = await student.get(`/api/courses/${course._id}/live-classes`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([expect.objectContaining({ _id: live._id, status: 'ended' })]);
    expect(list.body[0]).not.toHaveProperty('recording');
    expect((await student.get('/api/admin/live-classes')).status).toBe(403);
  });
});
