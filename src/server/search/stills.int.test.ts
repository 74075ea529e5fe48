import { describe, expect, it } from 'vitest';
import { searchMessages } from '../../contract/search';
import { mediaKeys } from '../storage';
import { testEngines } from '../../../test/support/databases';
import type { TestClient } from '../../../test/support/http-client';
import { makeClip } from '../../../test/support/media-kit';
import { burst, rawRequest, type RawReply } from '../../../test/support/raw-http';
import { suiteAdmin, suiteServer, type TestServer } from '../../../test/support/test-server';
import { watchedCourse } from '../../../test/support/watch-fixtures';
import { STILLS_PER_USER } from './frames';

/** A lecture of `seconds` with its source kept and a caption cue starting at every whole second: a still at each. */
async function lectureWithCues(server: TestServer, admin: TestClient, seconds: number) {
  const students = await Promise.all([1, 2, 3].map(() => server.studentClient()));
  const { videoIds } = await watchedCourse(
    server,
    students.map((s) => s.student),
    [seconds],
  );
  const videoId = videoIds[0]!;
  await server.ctx.media.local.put(mediaKeys.source(videoId), {
    file: await makeClip({ seconds, audio: false }),
  });
  const at = (s: number) => new Date(s * 1000).toISOString().slice(11, 23);
  const cues = Array.from({ length: seconds }, (_, s) => `${at(s)} --> ${at(s + 0.9)}\nstep ${s}\n`);
  const form = new FormData();
  form.set('language', 'en');
  form.set('label', 'English');
  form.set('file', new Blob([`WEBVTT\n\n${cues.join('\n')}`]), 'captions.vtt');
  const saved = await admin.request('POST', `/api/admin/videos/${videoId}/captions`, { body: form });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  return { videoId, students: students.map((s) => s.client) };
}

/** Every still of `seconds` asked for at once by `client`, each on its own connection. */
function stillsBurst(server: TestServer, client: TestClient, videoId: string, seconds: number[]) {
  const host = new URL(server.url).host;
  return burst(
    server.url,
    seconds.map((s) =>
      rawRequest('GET', `/api/videos/${videoId}/frame?t=${s}`, [
        ['Host', host],
        ['Cookie', `token=${client.token}`],
        ['Connection', 'close'],
      ]),
    ),
  );
}

const messageOf = (reply: RawReply) => (JSON.parse(reply.body) as { message: string }).message;

const statuses = (replies: RawReply[]) => {
  const counts: Record<string, number> = {};
  for (const r of replies) {
    const key = r.status === 429 ? `429 ${messageOf(r)}` : String(r.status);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
};

describe.each(testEngines())('search stills under load (%s)', (engine) => {
  const server = suiteServer({ engine, env: { OPEN_HOURS: 'always' } });
  const admin = suiteAdmin(server);

  it(`200 stills from one student in bursts of 25: ${STILLS_PER_USER} made, every later one 429 with Retry-After`, async () => {
    const { videoId, students } = await lectureWithCues(server, admin, 200);
    const replies: RawReply[] = [];
    // Each burst fits the queue: what refuses them is the student's own count.
    for (let from = 0; from < 200; from += 25) {
      const seconds = Array.from({ length: 25 }, (_, s) => from + s);
      replies.push(...(await stillsBurst(server, students[0]!, videoId, seconds)));
    }
    console.log(`[stills] ${engine} one student:`, statuses(replies));
    expect(replies.filter((r) => r.status === 200).length).toBe(STILLS_PER_USER);
    const refused = replies.filter((r) => r.status === 429);
    expect(refused.length).toBe(200 - STILLS_PER_USER);
    expect(refused.every((r) => messageOf(r) === searchMessages.tooManyStills)).toBe(true);
    expect(refused.every((r) => Number(r.headers['retry-after']) > 0)).toBe(true);
    // A still already made is no new work: it is still served.
    const made = replies.flatMap((r, second) => (r.status === 200 ? [second] : [])).slice(0, 10);
    const again = await stillsBurst(server, students[0]!, videoId, made);
    expect(again.map((r) => r.status)).toEqual(made.map(() => 200));
  }, 120_000);

  it('a full queue of stills answers 429 with Retry-After, never 503', async () => {
    const { videoId, students } = await lectureWithCues(server, admin, 150);
    // Three students, fifty different stills each (within each one's limit), all at once.
    const replies = (
      await Promise.all(
        students.map((client, n) =>
          stillsBurst(
            server,
            client,
            videoId,
            Array.from({ length: 50 }, (_, s) => n * 50 + s),
          ),
        ),
      )
    ).flat();
    console.log(`[stills] ${engine} three students:`, statuses(replies));
    expect(replies.every((r) => r.status === 200 || r.status === 429)).toBe(true);
    const busy = replies.filter((r) => r.status === 429);
    expect(busy.length).toBeGreaterThan(0);
    expect(busy.every((r) => messageOf(r) === searchMessages.stillsBusy)).toBe(true);
    expect(busy.every((r) => Number(r.headers['retry-after']) > 0)).toBe(true);
  }, 120_000);
});
