import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, renderRoute } from '../test-utils';
import { holdsAt, SCREEN_TEXT_DEBOUNCE_MS, ScreenTextPanel } from './ScreenTextPanel';

const CODE = 'function quorblaxWidget() {\n    return zindleplume(42);\n}';

/** A stand-in for the player's <video>: its time is set by the test, which fires the events. */
function fakeVideo(at = 0) {
  const video = Object.assign(new EventTarget(), { currentTime: at, paused: false });
  const moveTo = (t: number, event: 'timeupdate' | 'seeked' = 'timeupdate') => {
    video.currentTime = t;
    video.dispatchEvent(new Event(event));
  };
  return { ref: { current: video as unknown as HTMLVideoElement }, moveTo };
}

/** The moments the panel asked the screen text of, in order. */
const askedTimes = (fetch: ReturnType<typeof fakeServer>['fetch']) =>
  fetch.mock.calls.map(([input]) => Number(new URL(String(input), 'http://localhost').searchParams.get('t')));

describe('text on screen', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the code of the moment with its indentation, and copies it', async () => {
    fakeServer({
      'GET /api/videos/v1/screen-text': () => ({ body: { t: 3, until: 12, text: CODE } }),
    });
    const writeText = vi.fn(async () => {});
    const user = userEvent.setup();
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderRoute(<ScreenTextPanel videoId="v1" mediaRef={fakeVideo(5).ref} />);
    const code = await screen.findByLabelText('Text read from the screen');
    expect(code.tagName).toBe('PRE');
    expect(code.textContent).toBe(CODE);
    expect(screen.getByText('00:03')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Copy the text on screen' }));
    expect(writeText).toHaveBeenCalledWith(CODE);
    expect(await screen.findByRole('button', { name: 'Copied the text on screen' })).toBeTruthy();
  });

  it('asks again only when the moment leaves the reading, once where a seek stops', async () => {
    const server = fakeServer({
      'GET /api/videos/v1/screen-text': () => {
        const t = askedTimes(server.fetch).at(-1) ?? 0;
        return t < 12
          ? { body: { t: 0, until: 12, text: 'first screen' } }
          : { body: { t: 12, until: null, text: 'git rebase -i HEAD~3' } };
      },
    });
    const video = fakeVideo(1);
    renderRoute(<ScreenTextPanel videoId="v1" mediaRef={video.ref} />);
    expect((await screen.findByLabelText('Text read from the screen')).textContent).toBe('first screen');
    // Playing through the same screen: no request.
    for (const t of [2, 4, 6, 8, 10, 11.9]) video.moveTo(t);
    await new Promise((resolve) => setTimeout(resolve, SCREEN_TEXT_DEBOUNCE_MS + 100));
    expect(askedTimes(server.fetch)).toEqual([1]);
    // Scrubbing past the end: one request, where it stopped.
    for (const t of [13, 15, 20]) video.moveTo(t, 'seeked');
    await waitFor(() =>
      expect(screen.getByLabelText('Text read from the screen').textContent).toBe('git rebase -i HEAD~3'),
    );
    expect(askedTimes(server.fetch)).toEqual([1, 20]);
    // The text stays on screen while the next answer loads (no flash of a spinner).
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says when nothing is on screen, and when it failed', async () => {
    fakeServer({ 'GET /api/videos/v1/screen-text': () => ({ body: { t: 2, until: 30, text: '' } }) });
    const { unmount } = renderRoute(<ScreenTextPanel videoId="v1" mediaRef={fakeVideo(2).ref} />);
    expect(await screen.findByText('No text on screen at this moment.')).toBeTruthy();
    unmount();
    fakeServer({
      'GET /api/videos/v1/screen-text': () => ({ status: 403, body: { message: 'Access denied.' } }),
    });
    renderRoute(<ScreenTextPanel videoId="v1" mediaRef={fakeVideo(2).ref} />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Access denied.');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('knows how long an answer holds', () => {
    expect(holdsAt({ t: 3, until: 12 }, 3)).toBe(true);
    expect(holdsAt({ t: 3, until: 12 }, 11.99)).toBe(true);
    expect(holdsAt({ t: 3, until: 12 }, 12)).toBe(false);
    expect(holdsAt({ t: 3, until: 12 }, 2)).toBe(false);
    // Nothing known after it: asked again a few seconds on (indexing may still be adding).
    expect(holdsAt({ t: 40, until: null }, 44)).toBe(true);
    expect(holdsAt({ t: 40, until: null }, 46)).toBe(false);
  });
});
