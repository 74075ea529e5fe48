import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StudentVideo } from '../../contract/media';
import { installFakeBrowser, type FakeBrowser } from '../../../test/support/fake-media';
import { fakeServer, labelInNameMismatches, refusal, renderRoute, type FakeRoutes } from '../test-utils';
import CoursePage from './CoursePage';

const video = (id: string, title: string, extra: Partial<StudentVideo> = {}): StudentVideo => ({
  _id: id,
  title,
  description: `About ${title}`,
  thumbnail: `/stream/videos/${id}/poster.jpg`,
  url: `/stream/videos/${id}/master.m3u8`,
  duration: '10:00',
  progress: { position: 0, watched: 0, completed: false },
  ...extra,
});

const VIDEOS = [
  video('v1', 'Welcome', { progress: { position: 600, watched: 590, completed: true } }),
  video('v2', 'Node setup', { progress: { position: 125, watched: 125, completed: false } }),
  video('v3', 'Git basics'),
];

function routes(overrides: FakeRoutes = {}): FakeRoutes {
  return {
    'GET /api/courses': () => ({ body: { courses: [] } }),
    'POST /api/videos': () => ({ body: { videos: VIDEOS } }),
    'POST /api/rollno': () => ({ body: { rollno: 'FS24-017' } }),
    'POST /api/progress': () => ({ body: { progress: { position: 1, watched: 1, completed: false } } }),
    'GET /api/courses/c1/live-classes': () => ({ body: [] }),
    ...overrides,
  };
}

const renderCourse = (url = '/course/c1') => renderRoute(<CoursePage />, { path: '/course/:courseId', url });

let browser: FakeBrowser;
beforeEach(() => {
  browser = installFakeBrowser();
});
afterEach(() => browser.restore());

describe('course page', () => {
  it('shows playlist skeletons while loading, then the first video on its intro thumbnail', async () => {
    fakeServer(routes());
    renderCourse();
    expect(screen.getAllByTestId('playlist-skeleton')).toHaveLength(4);
    expect(await screen.findByRole('heading', { name: 'Welcome' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Play Welcome' })).toBeInTheDocument();
    expect(document.querySelector('canvas')).toBeNull(); // no player before the first play
    const playlist = screen.getByRole('navigation', { name: 'Course Playlist' });
    expect(within(playlist).getByRole('button', { current: true })).toHaveTextContent('1. Welcome');
    expect(within(playlist).getAllByRole('img', { name: 'Completed' })).toHaveLength(1);
    expect(playlist).toHaveTextContent('1 / 3 completed');
    // A watched bar for each video started: 590 s and 125 s of 10 minutes.
    expect(within(playlist).getByRole('progressbar', { name: '98% watched' })).toBeInTheDocument();
    expect(within(playlist).getByRole('progressbar', { name: '21% watched' })).toBeInTheDocument();
    expect(within(playlist).getAllByRole('progressbar')).toHaveLength(2);
    expect(screen.getByRole('button', { name: /^Play Next Node setup/ })).toBeInTheDocument();
  });

  it('opens the video named in the address and offers to resume it', async () => {
    fakeServer(routes());
    renderCourse('/course/c1?video=v2');
    expect(await screen.findByRole('heading', { name: 'Node setup' })).toBeInTheDocument();
    expect(screen.getByText('Resume from 02:05')).toBeInTheDocument();
  });

  it('names each button with the words it shows (a speech user says what they see)', async () => {
    fakeServer(routes());
    renderCourse('/course/c1?video=v2');
    expect(
      await screen.findByRole('button', { name: 'Play Node setup: resume from 02:05' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Play Next Git basics/ })).toBeInTheDocument();
    expect(labelInNameMismatches()).toEqual([]);
  });

  it('draws the roll number on the playing video', async () => {
    fakeServer(routes());
    const user = userEvent.setup();
    renderCourse();
    await user.click(await screen.findByRole('button', { name: 'Play Welcome' }));
    // The player's code is its own chunk: it may arrive a moment after the click.
    expect(
      await screen.findByRole('img', { name: 'Welcome: video with watermark FS24-017' }, { timeout: 5_000 }),
    ).toBeInTheDocument();
    expect(browser.drawnText).toContain('FS24-017');
  });

  it("falls back to 'Confidential' when the roll number cannot be loaded", async () => {
    fakeServer(routes({ 'POST /api/rollno': () => ({ status: 500, body: {} }) }));
    const user = userEvent.setup();
    renderCourse();
    await user.click(await screen.findByRole('button', { name: 'Play Welcome' }));
    expect(
      await screen.findByRole(
        'img',
        { name: 'Welcome: video with watermark Confidential' },
        { timeout: 5_000 },
      ),
    ).toBeInTheDocument();
    expect(browser.drawnText).not.toContain('FS24-017');
    expect(browser.drawnText.at(-1)).toBe('Confidential');
  });

  it('plays the picked playlist video at once and keeps it in the address', async () => {
    fakeServer(routes());
    const user = userEvent.setup();
    const { router } = renderCourse();
    const playlist = await screen.findByRole('navigation', { name: 'Course Playlist' });
    await user.click(await within(playlist).findByRole('button', { name: /3\. Git basics/ }));
    expect(router.state.location.search).toBe('?video=v3');
    expect(screen.getByRole('heading', { name: 'Git basics' })).toBeInTheDocument();
    expect(
      await screen.findByRole('region', { name: 'Video player: Git basics' }, { timeout: 5_000 }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Play Next/ })).not.toBeInTheDocument(); // the last one
  });

  it('starts the lecture already playing at a search hit in it, not where the student was', async () => {
    const hit = {
      videoId: 'v2',
      courseId: 'c1',
      title: 'Node setup',
      t: 20,
      source: 'captions' as const,
      snippet: [{ text: 'install express', match: true }],
      frameUrl: null,
    };
    fakeServer(routes({ 'GET /api/search': () => ({ body: { hits: [hit] } }) }));
    const user = userEvent.setup();
    renderCourse('/course/c1?video=v2');
    /** Where the player's <video> goes once its stream has loaded (the fake's length: the lecture's 10 min). */
    const startsAt = async () => {
      const media = await waitFor(() => {
        const found = document.querySelector('video');
        if (!found) throw new Error('no player yet');
        return found;
      });
      Object.defineProperty(media, 'duration', { value: 600, configurable: true });
      media.dispatchEvent(new Event('loadedmetadata'));
      return media.currentTime;
    };
    await user.click(await screen.findByRole('button', { name: 'Play Node setup: resume from 02:05' }));
    await screen.findByRole('region', { name: 'Video player: Node setup' }, { timeout: 5_000 });
    expect(await startsAt()).toBe(125);

    for (const watchedTo of [39, 39]) {
      document.querySelector('video')!.currentTime = watchedTo;
      const search = screen.getByRole('textbox', { name: 'Search this course' });
      await user.clear(search);
      await user.type(search, 'express');
      await user.click(await screen.findByRole('link', { name: /Node setup · 00:20/ }));
      // Two seconds before the hit, whether or not the address already named it.
      await waitFor(async () => expect(await startsAt()).toBe(18));
    }
  });

  it('shows the empty state when the student may watch nothing here', async () => {
    fakeServer(routes({ 'POST /api/videos': () => ({ body: { videos: [] } }) }));
    renderCourse();
    expect(await screen.findByText('No videos found or accessible for this account')).toBeInTheDocument();
  });

  it('gives an empty list, with the reason, when the videos cannot be loaded', async () => {
    fakeServer(
      routes({ 'POST /api/videos': refusal(403, 'Your access to this course has expired or been revoked.') }),
    );
    renderCourse();
    expect(await screen.findByText('No videos found or accessible for this account')).toBeInTheDocument();
    expect(screen.getByText('Your access to this course has expired or been revoked.')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Course Playlist' })).not.toBeInTheDocument();
  });

  it('shows a class live now with Watch live, and upcoming classes with Add to calendar', async () => {
    const user = userEvent.setup();
    fakeServer(
      routes({
        'GET /api/courses/c1/live-classes': () => ({
          body: [
            {
              _id: 'l1',
              videoId: 'v3',
              title: 'Closures, live',
              startsAt: '2026-03-02T08:00:00.000Z',
              minutes: 60,
              status: 'live',
            },
            {
              _id: 'l2',
              videoId: 'v9',
              title: 'Async, live',
              startsAt: '2026-03-03T10:00:00.000Z',
              minutes: 45,
              status: 'scheduled',
            },
            {
              _id: 'l0',
              videoId: 'v8',
              title: 'Done before',
              startsAt: '2026-03-01T10:00:00.000Z',
              minutes: 45,
              status: 'ended',
            },
          ],
        }),
      }),
    );
    renderCourse();
    const live = await screen.findByLabelText('Live now: Closures, live');
    expect(within(live).getByText('Live now')).toBeInTheDocument();
    const calendar = screen.getByRole('link', { name: 'Add to calendar: Async, live' });
    expect(calendar).toHaveAttribute('href', '/api/live-classes/l2/calendar.ics');
    expect(screen.queryByText('Done before')).not.toBeInTheDocument();
    expect(labelInNameMismatches()).toEqual([]);
    await user.click(within(live).getByRole('button', { name: 'Watch live' }));
    expect(await screen.findByRole('heading', { name: 'Git basics' })).toBeInTheDocument();
  });

  it('opens a class that has just gone live on its own lecture, not on the first one for a moment', async () => {
    const user = userEvent.setup();
    // The course's list was answered a moment before the class went live; its next answer has it.
    let listWithLive: () => void = () => {};
    const listed = new Promise<void>((resolve) => (listWithLive = resolve));
    let asked = 0;
    fakeServer(
      routes({
        'POST /api/videos': async () => {
          if (++asked === 1) return { body: { videos: VIDEOS } };
          await listed;
          return { body: { videos: [...VIDEOS, video('v4', 'Closures, live')] } };
        },
        'GET /api/courses/c1/live-classes': () => ({
          body: [
            {
              _id: 'l1',
              videoId: 'v4',
              title: 'Closures, live',
              startsAt: '2026-03-02T08:00:00.000Z',
              minutes: 60,
              status: 'live',
            },
          ],
        }),
      }),
    );
    renderCourse();
    const live = await screen.findByLabelText('Live now: Closures, live');
    await user.click(within(live).getByRole('button', { name: 'Watch live' }));
    // Waiting for the list, with no player started on "Welcome".
    expect(screen.getByLabelText('Loading the course')).toBeInTheDocument();
    expect(document.querySelector('video')).toBeNull();
    listWithLive();
    await screen.findByRole('region', { name: 'Video player: Closures, live' }, { timeout: 5_000 });
    expect(screen.queryByRole('region', { name: 'Video player: Welcome' })).not.toBeInTheDocument();
    expect(document.querySelectorAll('video')).toHaveLength(1);
  });

  it('says so when there is no live class, and when the list cannot be loaded', async () => {
    fakeServer(routes());
    const { unmount } = renderCourse();
    expect(await screen.findByText('No live classes scheduled.')).toBeInTheDocument();
    unmount();
    fakeServer(routes({ 'GET /api/courses/c1/live-classes': refusal(503, 'Lectern is closed right now.') }));
    renderCourse();
    expect(
      await screen.findByText('Lectern is closed right now.', {}, { timeout: 5000 }),
    ).toBeInTheDocument();
  });
});
