import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FIRST_ANSWERS_ELEMENT_ID } from '../../contract/first-answers';

// The web app's client with the answers a student page's index.html carried (the server's side:
// server/http/first-answers.int.test.ts). The network is a stub that says what was asked of it.

const TIME = { hour: 10, open: true, opensAt: null, closesAt: null, timeZone: 'Asia/Kolkata', hours: null };
const VIDEOS = { videos: [{ _id: 'v1', title: 'Scope' }] };

function pageWith(answers: object) {
  const element = document.createElement('script');
  element.type = 'application/json';
  element.id = FIRST_ANSWERS_ELEMENT_ID;
  element.textContent = JSON.stringify(answers);
  document.head.append(element);
}

let asked: string[];
beforeEach(() => {
  vi.resetModules();
  // A page opened a moment ago (the worker that runs this file may have run others for minutes).
  vi.spyOn(performance, 'now').mockReturnValue(1_000);
  asked = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      asked.push(`${init.method} ${url}${init.body ? ` ${String(init.body)}` : ''}`);
      return new Response(JSON.stringify({ from: 'network' }), { status: 200 });
    }),
  );
  pageWith({
    'GET /api/time': TIME,
    'POST /api/videos {"courseId":"c1"}': VIDEOS,
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.getElementById(FIRST_ANSWERS_ELEMENT_ID)?.remove();
});

describe('first answers', () => {
  it("answers a page's first call of a request from the page, and the next ones from the network", async () => {
    const { call } = await import('./client');
    expect(await call('GET /api/time')).toEqual(TIME);
    expect(await call('POST /api/videos', { body: { courseId: 'c1' } })).toEqual(VIDEOS);
    expect(asked).toEqual([]);
    expect(document.getElementById(FIRST_ANSWERS_ELEMENT_ID)).toBeNull();
    expect(await call('GET /api/time')).toEqual({ from: 'network' });
    expect(await call('POST /api/videos', { body: { courseId: 'c1' } })).toEqual({ from: 'network' });
    expect(asked).toEqual(['GET /api/time', 'POST /api/videos {"courseId":"c1"}']);
  });

  it('asks the network for another request: another body, another route', async () => {
    const { call } = await import('./client');
    await call('GET /api/courses');
    await call('POST /api/videos', { body: { courseId: 'c2' } });
    expect(asked).toEqual(['GET /api/courses', 'POST /api/videos {"courseId":"c2"}']);
  });

  it('forgets every answer once a state-changing call went to the network (a sign-out, a sign-in)', async () => {
    const { call } = await import('./client');
    await call('POST /api/logout');
    await call('GET /api/time');
    await call('POST /api/videos', { body: { courseId: 'c1' } });
    expect(asked).toEqual(['POST /api/logout', 'GET /api/time', 'POST /api/videos {"courseId":"c1"}']);
  });

  it('takes none once the page has been open longer than its first screen', async () => {
    vi.spyOn(performance, 'now').mockReturnValue(30_001);
    const { call } = await import('./client');
    expect(await call('GET /api/time')).toEqual({ from: 'network' });
    expect(asked).toEqual(['GET /api/time']);
  });

  it('asks the network when the page carried no answers, or unreadable ones', async () => {
    document.getElementById(FIRST_ANSWERS_ELEMENT_ID)!.textContent = '{not json';
    const { call } = await import('./client');
    expect(await call('GET /api/time')).toEqual({ from: 'network' });
  });
});
