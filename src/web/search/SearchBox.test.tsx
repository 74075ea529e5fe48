import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeServer, renderRoute } from '../test-utils';
import { SearchBox } from './SearchBox';
import { hitFromParam, hitLink, startFromParam } from './snippet';

const hit = {
  videoId: 'v7',
  courseId: 'c1',
  title: 'Hooks in depth',
  t: 754.4,
  source: 'screen' as const,
  snippet: [
    { text: 'return () => ', match: false },
    { text: 'useEffect', match: true },
    { text: ' cleanup «quoted»', match: false },
  ],
  frameUrl: '/api/videos/v7/frame?t=754',
};

describe('search box', () => {
  it('searches as the student types, marks the match and links to the second', async () => {
    const queries: string[] = [];
    fakeServer({
      'GET /api/search': () => ({ body: { hits: [hit] } }),
    });
    const seen = globalThis.fetch;
    globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
      queries.push(new URL(String(input), 'http://localhost').search);
      return seen(input, init);
    }) as typeof fetch;
    const { router } = renderRoute(<SearchBox courseId="c1" />, {
      path: '/course/c1',
      extra: [{ path: '/course/:courseId', element: <p>course page</p> }],
    });
    await userEvent.type(screen.getByRole('textbox', { name: 'Search this course' }), 'useEffect');
    const link = await screen.findByRole('link', { name: /Hooks in depth · 12:34/ });
    expect(link.getAttribute('href')).toBe('/course/c1?video=v7&t=754');
    // The match alone is marked; guillemets of the text stay text.
    expect(link.querySelectorAll('mark')).toHaveLength(1);
    expect(screen.getByText('useEffect', { selector: 'mark' })).toBeTruthy();
    expect(screen.getByText('cleanup «quoted»')).toBeTruthy();
    expect(screen.getByText('on screen')).toBeTruthy();
    // The hit's still, decorative beside the words that name it.
    expect(link.querySelector('img')?.getAttribute('src')).toBe('/api/videos/v7/frame?t=754');
    // Debounced: one request for the whole word.
    expect(queries).toEqual(['?q=useEffect&courseId=c1']);
    await userEvent.click(link);
    await waitFor(() => expect(router.state.location.search).toBe('?video=v7&t=754'));
  });

  it('says when nothing matches', async () => {
    fakeServer({ 'GET /api/search': () => ({ body: { hits: [] } }) });
    renderRoute(<SearchBox />, { path: '/dashboard' });
    await userEvent.type(screen.getByRole('textbox', { name: 'Search all my lectures' }), 'zzz');
    expect(await screen.findByText('No matches in your lectures.')).toBeTruthy();
  });

  it('says when the search failed', async () => {
    fakeServer({ 'GET /api/search': () => ({ status: 429, body: { message: 'Too many searches.' } }) });
    renderRoute(<SearchBox />, { path: '/dashboard' });
    await userEvent.type(screen.getByRole('textbox', { name: 'Search all my lectures' }), 'zzz');
    expect((await screen.findByRole('alert')).textContent).toBe('Too many searches.');
  });

  it('reads hit times', () => {
    expect(hitLink({ courseId: 'c', videoId: 'v', t: 9.9 })).toBe('/course/c?video=v&t=9');
    expect(startFromParam('12')).toBe(10);
    expect(startFromParam('1')).toBe(0);
    expect(startFromParam('-4')).toBeUndefined();
    expect(startFromParam('abc')).toBeUndefined();
    expect(startFromParam(null)).toBeUndefined();
    expect(hitFromParam('12')).toBe(12);
    expect(hitFromParam('-1')).toBeUndefined();
  });
});
