import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Profiler, useRef, useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_CUE_SETTINGS, type Cue } from '../../contract/cues';
import { renderRoute } from '../test-utils';
import type { Captions } from './captions';
import { Transcript } from './Transcript';

const ROW = 30;
const LIST_HEIGHT = 300;

const cue = (start: number, end: number, text: string): Cue => ({
  id: '',
  start,
  end,
  text,
  plain: text,
  settings: { ...DEFAULT_CUE_SETTINGS },
});

// Twenty cues of 10 s each, with a gap at 100-110 s.
const cues = Array.from({ length: 21 }, (_, i) => i)
  .filter((i) => i !== 10)
  .map((i) => cue(i * 10, i * 10 + 10, `line ${i}`));

const captionsOf = (transcript: Cue[]): Captions => ({
  tracks: transcript.length ? ([{ language: 'en', label: 'English' }] as unknown as Captions['tracks']) : [],
  language: null,
  cues: [],
  transcript,
  transcriptLabel: transcript.length ? 'English' : null,
  choose() {},
  toggle() {},
});

/** The transcript of a page opened at a hit; the captions arrive when `load` is called. */
function Page({ at, onLoad }: { at: number; onLoad: (load: () => void) => void }) {
  const mediaRef = useRef<HTMLVideoElement | null>(null);
  const [loaded, setLoaded] = useState(false);
  onLoad(() => setLoaded(true));
  return (
    <>
      <video ref={mediaRef} data-testid="video" />
      <Transcript
        captions={captionsOf(loaded ? cues : [])}
        mediaRef={mediaRef}
        focus={{ at, playFrom: Math.max(0, at - 2) }}
      />
    </>
  );
}

/** Opens the page at a hit; `commits` counts the renders React commits from then on. */
function open(at: number) {
  let load = () => {};
  const commits = { count: 0 };
  renderRoute(
    <Profiler id="transcript" onRender={() => void commits.count++}>
      <Page at={at} onLoad={(l) => (load = l)} />
    </Profiler>,
    { path: '/course/c1' },
  );
  return { load: () => act(() => load()), commits };
}

const list = () => screen.getByRole('list', { name: 'Transcript lines' });
const currentLine = () => list().querySelector('[aria-current="true"]')?.textContent;

function playerAt(seconds: number, event = 'timeupdate') {
  const video = screen.getByTestId('video');
  Object.defineProperty(video, 'currentTime', { value: seconds, configurable: true });
  act(() => void video.dispatchEvent(new Event(event)));
}

let scrollTo: ReturnType<typeof vi.fn>;
beforeEach(() => {
  // jsdom lays nothing out: each line is ROW px high at its place in the list, the list LIST_HEIGHT px.
  scrollTo = vi.fn();
  vi.spyOn(HTMLElement.prototype, 'offsetTop', 'get').mockImplementation(function (this: HTMLElement) {
    const start = this.dataset.start;
    return start === undefined ? 0 : cues.findIndex((c) => c.start === Number(start)) * ROW;
  });
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(ROW);
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(LIST_HEIGHT);
  HTMLElement.prototype.scrollTo = scrollTo as unknown as HTMLElement['scrollTo'];
});
afterEach(() => {
  vi.restoreAllMocks();
  delete (HTMLElement.prototype as Partial<HTMLElement>).scrollTo;
});

describe('transcript opened at a search hit', () => {
  it('marks the cue in force at that second current and centres it once the captions load', () => {
    const page = open(154);
    expect(scrollTo).not.toHaveBeenCalled();
    page.load();
    expect(currentLine()).toBe('02:30line 15');
    // Line 15 is the 15th row (the gap has none): its middle in the middle of the list.
    expect(scrollTo).toHaveBeenCalledTimes(1);
    expect(scrollTo).toHaveBeenCalledWith({ top: 14 * ROW - (LIST_HEIGHT - ROW) / 2, behavior: 'smooth' });
    expect(scrollTo.mock.contexts[0]).toBe(list());
  });

  it('does not scroll smoothly for a viewer who asks for reduced motion', () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === '(prefers-reduced-motion: reduce)',
      media: query,
      addListener() {},
      removeListener() {},
      addEventListener() {},
      removeEventListener() {},
    }));
    open(154).load();
    expect(scrollTo).toHaveBeenCalledWith({ top: 14 * ROW - (LIST_HEIGHT - ROW) / 2, behavior: 'auto' });
  });

  it("keeps the hit's cue current through the player's lead-in, then follows the player", () => {
    open(151).load();
    expect(currentLine()).toBe('02:30line 15');
    // The player starts two seconds before the hit, in the line before.
    playerAt(149, 'seeked');
    playerAt(149.8);
    expect(currentLine()).toBe('02:30line 15');
    playerAt(152);
    expect(currentLine()).toBe('02:30line 15');
    playerAt(40, 'seeked');
    expect(currentLine()).toBe('00:40line 4');
    // Back in the lead-in's seconds, the player is followed now.
    playerAt(149);
    expect(currentLine()).toBe('02:20line 14');
    expect(scrollTo).toHaveBeenCalledTimes(1);
  });

  it('brings the next cue into view when none is in force at that second', () => {
    open(104).load();
    expect(currentLine()).toBeUndefined();
    expect(scrollTo).toHaveBeenCalledWith({ top: 10 * ROW - (LIST_HEIGHT - ROW) / 2, behavior: 'smooth' });
  });
});

describe('transcript search', () => {
  it('marks the matched letters themselves after letters whose lower case is longer (İ)', async () => {
    function Searched() {
      const mediaRef = useRef<HTMLVideoElement | null>(null);
      return (
        <Transcript captions={captionsOf([cue(0, 5, 'İİİ in İzmir: React hooks')])} mediaRef={mediaRef} />
      );
    }
    renderRoute(<Searched />, { path: '/course/c1' });
    await userEvent.type(screen.getByRole('textbox', { name: 'Search the transcript' }), 'react');
    expect([...list().querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['React']);
  });
});

describe('transcript while the video plays', () => {
  it('renders again only when the line changes, not at each timeupdate (4 a second)', () => {
    const page = open(0);
    page.load();
    playerAt(20.1);
    expect(currentLine()).toBe('00:20line 2');
    const before = page.commits.count;
    for (let t = 20.25; t < 30; t += 0.25) playerAt(t);
    // 39 timeupdates in the line: none renders (React may run the first once more before it bails out).
    expect(page.commits.count - before).toBeLessThanOrEqual(1);
    playerAt(30.2);
    expect(currentLine()).toBe('00:30line 3');
  });
});
