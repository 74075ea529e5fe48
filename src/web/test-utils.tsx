import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement, RefObject } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { vi } from 'vitest';
import type { AdminCourse } from '../contract/courses';
import type { Note, Question } from '../contract/learning';
import { createQueryClient } from './api/query-client';
import { theme } from './app/theme';
import type { PlayerControlsProps } from './player/PlayerControls';
import type { MediaState } from './player/use-media-state';

type FakeAnswer = { status?: number; body?: unknown };

/** A fake route answers at once, or when its promise settles (to look at the page while a request is under way). */
export type FakeRoutes = Record<string, (init: RequestInit | undefined) => FakeAnswer | Promise<FakeAnswer>>;

/** A fake route that refuses with `status` and the server's `{ message }`. */
export const refusal = (status: number, message: string) => (): FakeAnswer => ({ status, body: { message } });

/** A request body as a test reads it: JSON parsed, form data as an object of fields (files stay Blobs). */
function bodyOf(body: RequestInit['body'] | undefined): unknown {
  if (body === undefined || body === null) return undefined;
  if (body instanceof FormData) return Object.fromEntries(body.entries());
  try {
    return JSON.parse(String(body));
  } catch {
    return body;
  }
}

type Calls = { method: string; path: string; body: unknown }[];

/** The fake answer of one request (recorded in `calls`); unknown routes throw. */
async function answer(routes: FakeRoutes, calls: Calls, method: string, input: string, init: RequestInit) {
  const url = new URL(input, 'http://localhost');
  const key = `${method} ${url.pathname}`;
  calls.push({ method, path: url.pathname, body: bodyOf(init.body) });
  const handler = routes[key];
  if (!handler) throw new Error(`unexpected request ${key}`);
  const { status = 200, body = {} } = await handler(init);
  return { status, text: JSON.stringify(body) };
}

/**
 * XMLHttpRequest as the upload client uses it (web/api/client.ts `upload`): the fake server
 * answers, after reporting the body as sent in two halves (upload progress events).
 */
function fakeXhr(routes: FakeRoutes, calls: Calls) {
  return class FakeXMLHttpRequest {
    status = 0;
    responseText = '';
    readonly upload: { onprogress: ((event: { loaded: number; total: number }) => void) | null } = {
      onprogress: null,
    };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    private target = { method: 'GET', url: '' };
    private aborted = false;
    open(method: string, url: string) {
      this.target = { method, url };
    }
    setRequestHeader() {}
    abort() {
      this.aborted = true;
      this.onabort?.();
    }
    send(body: FormData | null) {
      const file = body ? [...body.values()].find((v): v is File => v instanceof Blob) : undefined;
      const total = file?.size ?? 0;
      setTimeout(async () => {
        if (this.aborted) return;
        this.upload.onprogress?.({ loaded: Math.floor(total / 2), total });
        try {
          const { status, text } = await answer(routes, calls, this.target.method, this.target.url, { body });
          this.upload.onprogress?.({ loaded: total, total });
          [this.status, this.responseText] = [status, text];
          if (!this.aborted) this.onload?.();
        } catch {
          this.onerror?.();
        }
      });
    }
  };
}

/**
 * Stands in for the server at the network boundary (fetch, and XMLHttpRequest for uploads):
 * `routes` maps "METHOD /path" to a response. Unknown calls fail the test loudly.
 */
export function fakeServer(routes: FakeRoutes) {
  const calls: Calls = [];
  const fetchStub = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const { status, text } = await answer(routes, calls, init?.method ?? 'GET', String(input), init ?? {});
    return new Response(text, { status, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchStub);
  vi.stubGlobal('XMLHttpRequest', fakeXhr(routes, calls));
  return { calls, fetch: fetchStub };
}

/**
 * Renders `element` as the route `path` inside the app's providers, starting at `url` (the path
 * itself unless given, e.g. with a query string), with extra routes to observe navigation.
 */
export function renderRoute(
  element: ReactElement,
  { path = '/', url, extra = [] }: { path?: string; url?: string; extra?: RouteObject[] } = {},
) {
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { ...queryClient.getDefaultOptions().queries, retry: false } });
  const router = createMemoryRouter([{ path, element }, ...extra], { initialEntries: [url ?? path] });
  const result = render(
    <MantineProvider theme={theme}>
      <Notifications />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { ...result, router, queryClient };
}

/** A paused player's state at its start, for the player's tests; `fields` set the rest. */
export function pausedMedia(fields: Partial<MediaState> = {}): MediaState {
  return {
    playing: false,
    duration: 100,
    volume: 1,
    muted: false,
    rate: 1,
    buffering: false,
    ended: false,
    ...fields,
  };
}

/** A <video> held at `seconds` (jsdom plays nothing), in a ref. */
export function videoAt(seconds = 0): RefObject<HTMLVideoElement | null> {
  const video = document.createElement('video');
  Object.defineProperty(video, 'currentTime', { value: seconds, configurable: true });
  return { current: video };
}

/** PlayerControls' props for a visible bar, not fullscreen, every handler and action a stub unless given. */
export function controlsProps({
  actions,
  ...fields
}: Pick<PlayerControlsProps, 'media' | 'duration'> &
  Partial<Omit<PlayerControlsProps, 'actions'>> & {
    actions?: Partial<PlayerControlsProps['actions']>;
  }): PlayerControlsProps {
  return {
    videoRef: videoAt(0),
    fullscreen: false,
    visible: true,
    onToggleFullscreen: vi.fn(),
    onFocusChange: vi.fn(),
    ...fields,
    actions: {
      togglePlay: vi.fn(),
      seekTo: vi.fn(),
      toggleMute: vi.fn(),
      setVolume: vi.fn(),
      cycleSpeed: vi.fn(),
      ...actions,
    },
  };
}

const CREATED = '2026-01-01T00:00:00.000Z';

/** A note as the API answers it. */
export function testNote(fields: Pick<Note, '_id' | 'videoId' | 't'> & Partial<Note>): Note {
  return { text: 'a note', createdAt: CREATED, updatedAt: CREATED, ...fields };
}

/** An open question of someone else's, unanswered, as the API answers it. */
export function testQuestion(
  fields: Pick<Question, '_id' | 'videoId' | 't' | 'title'> & Partial<Question>,
): Question {
  return {
    text: '',
    status: 'open',
    mine: false,
    meToo: 0,
    meTooMine: false,
    unread: 0,
    answers: [],
    frameUrl: null,
    createdAt: CREATED,
    ...fields,
  };
}

/** Text as axe's label-content-name-mismatch compares it: lower case, punctuation and symbols dropped, spaces collapsed. */
const curated = (text: string) =>
  text
    .toLowerCase()
    .replace(/[\p{P}\p{S}]/gu, '')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * The controls under `root` named by aria-label or aria-labelledby whose name does not contain the
 * text they show (WCAG 2.5.3 "Label in Name", axe's `label-content-name-mismatch`): a speech user
 * says what they see. Each as `"name" lacks "text"`.
 */
export function labelInNameMismatches(root: ParentNode = document.body): string[] {
  const controls = root.querySelectorAll<HTMLElement>(
    'button, a[href], [role="button"], [role="link"], [role="tab"], [role="menuitem"], [role="checkbox"], [role="switch"]',
  );
  const found: string[] = [];
  for (const control of controls) {
    const ids = control.getAttribute('aria-labelledby');
    const name = ids
      ? ids
          .split(/\s+/)
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' ')
      : control.getAttribute('aria-label');
    const text = curated(control.textContent ?? '');
    if (name === null || !text) continue;
    if (!curated(name).includes(text)) found.push(`"${name}" lacks "${control.textContent?.trim()}"`);
  }
  return found;
}

/** A course as the admin course lists answer it: batch 4, this year, 2 videos and 10 students unless given. */
export function testCourse(
  fields: Pick<AdminCourse, '_id' | 'name' | 'coursecode'> & Partial<AdminCourse>,
): AdminCourse {
  return {
    batch: 4,
    description: '',
    thumbnail: null,
    startdate: '2026-01-05',
    enddate: '2026-12-18',
    totalvideos: 2,
    totalstudents: 10,
    ...fields,
  };
}
