import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { groupByVideo } from '../../search/snippet';
import { fakeServer, renderRoute, type FakeRoutes } from '../../test-utils';
import { videoLinks } from '../admin-links';
import AdminSearchPage from './AdminSearchPage';

const hit = (
  videoId: string,
  title: string,
  courseId: string | null,
  t: number,
  source: string,
  [before, match, after]: [string, string, string],
) => ({
  videoId,
  courseId,
  title,
  t,
  source,
  snippet: [
    { text: before, match: false },
    { text: match, match: true },
    { text: after, match: false },
  ].filter((piece) => piece.text),
  frameUrl: `/api/videos/${videoId}/frame?t=${Math.floor(t)}`,
});

const hits = [
  hit('v7', 'Hooks in depth', 'c1', 754.4, 'screen', ['return () => ', 'useEffect', ' cleanup']),
  hit('v9', 'Effects and timing', 'c2', 62, 'speech', ['so ', 'useEffect', ' runs after paint']),
  hit('v7', 'Hooks in depth', 'c1', 30, 'captions', ['today: ', 'useEffect', '']),
];

const courses = {
  course: [
    { _id: 'c1', name: 'React', batch: 4 },
    { _id: 'c2', name: 'Web performance', batch: 1 },
  ],
};

function serve(routes: FakeRoutes) {
  return fakeServer({ 'GET /api/admin/course/list': () => ({ body: courses }), ...routes });
}

const render = () =>
  renderRoute(<AdminSearchPage />, {
    path: '/adminsearch',
    extra: [{ path: '/adminanalytics/video/:videoId', element: <p>video analytics</p> }],
  });

describe('admin search', () => {
  it('searches every course and groups the hits by video with course, time, source and snippet', async () => {
    const queries: string[] = [];
    serve({
      'GET /api/admin/search': () => ({ body: { hits } }),
    });
    const seen = globalThis.fetch;
    globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.pathname === '/api/admin/search') queries.push(url.search);
      return seen(input, init);
    }) as typeof fetch;
    const { router } = render();
    expect(screen.getByRole('heading', { level: 1, name: 'Search lectures' })).toBeTruthy();
    await userEvent.type(screen.getByRole('textbox', { name: 'Search every course' }), 'useEffect');

    const hooks = await screen.findByRole('region', { name: 'Hooks in depth' });
    const effects = screen.getByRole('region', { name: 'Effects and timing' });
    expect(await within(hooks).findByText('React (Batch 4)')).toBeTruthy();
    expect(within(effects).getByText('Web performance (Batch 1)')).toBeTruthy();
    // Grouped by video, in the order the server ranked them.
    const regions = screen.getAllByRole('region').map((r) => r.getAttribute('aria-labelledby'));
    expect(regions).toEqual(['search-video-v7', 'search-video-v9']);
    const hookLinks = within(hooks).getAllByRole('link');
    expect(hookLinks.map((l) => l.textContent)).toEqual([
      'Hooks in depth at 12:34on screenreturn () => useEffect cleanup',
      'Hooks in depth at 00:30captionstoday: useEffect',
    ]);
    expect(hookLinks[0]!.getAttribute('href')).toBe('/adminanalytics/video/v7');
    expect(hookLinks[0]!.querySelector('img')?.getAttribute('src')).toBe('/api/videos/v7/frame?t=754');
    expect(within(effects).getByText('said')).toBeTruthy();
    expect(within(effects).getByText('useEffect', { selector: 'mark' })).toBeTruthy();
    // Debounced: one request for the whole word, with no course filter.
    expect(queries).toEqual(['?q=useEffect']);

    await userEvent.click(hookLinks[0]!);
    await waitFor(() => expect(router.state.location.pathname).toBe('/adminanalytics/video/v7'));
  });

  it('shows that it is searching, then says when nothing matches', async () => {
    let answer!: () => void;
    serve({
      'GET /api/admin/search': () =>
        new Promise((resolve) => {
          answer = () => resolve({ body: { hits: [] } });
        }),
    });
    render();
    await userEvent.type(screen.getByRole('textbox', { name: 'Search every course' }), 'zzz');
    expect(await screen.findByRole('status', { name: 'Searching' })).toBeTruthy();
    // The status shows from the moment the results' code starts loading, before the request is
    // sent (on a busy machine that code can take a while): answer once the server has been asked.
    await waitFor(() => expect(answer).toBeTypeOf('function'));
    expect(screen.getByRole('status', { name: 'Searching' })).toBeTruthy();
    answer();
    expect(await screen.findByText('No matches in any course.')).toBeTruthy();
  });

  it('says when the search failed', async () => {
    serve({ 'GET /api/admin/search': () => ({ status: 500, body: { message: 'Search failed.' } }) });
    render();
    await userEvent.type(screen.getByRole('textbox', { name: 'Search every course' }), 'zzz');
    expect((await screen.findByRole('alert')).textContent).toBe('Search failed.');
  });

  it('still lists hits when the course names do not load, and a hit without a course says so', async () => {
    serve({
      'GET /api/admin/course/list': () => ({ status: 500, body: { message: 'nope' } }),
      'GET /api/admin/search': () => ({
        body: { hits: [hit('v3', 'Loose video', null, 5, 'captions', ['', 'x', '']), hits[0]] },
      }),
    });
    render();
    await userEvent.type(screen.getByRole('textbox', { name: 'Search every course' }), 'x');
    const loose = await screen.findByRole('region', { name: 'Loose video' });
    expect(within(loose).getByText('No course')).toBeTruthy();
    const hooks = screen.getByRole('region', { name: 'Hooks in depth' });
    expect(within(hooks).getAllByRole('link')).toHaveLength(1);
    expect(within(hooks).queryByText(/Batch/)).toBeNull();
  });

  it('is in the Videos menu, and groups hits by video in first-seen order', () => {
    expect(videoLinks).toContainEqual({ to: '/adminsearch', label: 'Search lectures' });
    expect(groupByVideo(hits).map((g) => g.map((h) => h.t))).toEqual([[754.4, 30], [62]]);
  });
});
