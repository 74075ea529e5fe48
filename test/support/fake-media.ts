import { vi } from 'vitest';

/**
 * jsdom has no media pipeline and no canvas: these stand in for the browser's <video> and 2D
 * context in component tests. A fake video plays when asked, seeks instantly and fires the
 * events a browser would; the fake context records the text drawn on it.
 */
interface MediaFields {
  paused: boolean;
  currentTime: number;
  duration: number;
  volume: number;
  muted: boolean;
  playbackRate: number;
  readyState: number;
  seeking: boolean;
  ended: boolean;
  videoWidth: number;
  videoHeight: number;
}

export interface FakeBrowser {
  /** Every text drawn on any canvas, in order. */
  drawnText: string[];
  requestFullscreen: ReturnType<typeof vi.fn>;
  restore(): void;
}

export function installFakeBrowser(): FakeBrowser {
  const state = new WeakMap<HTMLMediaElement, MediaFields>();
  const fields = (el: HTMLMediaElement): MediaFields => {
    let s = state.get(el);
    if (!s) {
      s = {
        paused: true,
        currentTime: 0,
        duration: 60,
        volume: 1,
        muted: false,
        playbackRate: 1,
        readyState: 4,
        seeking: false,
        ended: false,
        videoWidth: 640,
        videoHeight: 360,
      };
      state.set(el, s);
    }
    return s;
  };
  const restorers: (() => void)[] = [];
  const patch = (proto: object, name: string, descriptor: PropertyDescriptor) => {
    const original = Object.getOwnPropertyDescriptor(proto, name);
    Object.defineProperty(proto, name, { configurable: true, ...descriptor });
    restorers.push(() => {
      if (original) Object.defineProperty(proto, name, original);
      else delete (proto as Record<string, unknown>)[name];
    });
  };

  const media = HTMLMediaElement.prototype;
  const events: Partial<Record<keyof MediaFields, string[]>> = {
    currentTime: ['seeking', 'seeked', 'timeupdate'],
    volume: ['volumechange'],
    muted: ['volumechange'],
    playbackRate: ['ratechange'],
  };
  for (const name of Object.keys(fields(document.createElement('video'))) as (keyof MediaFields)[]) {
    const proto = name === 'videoWidth' || name === 'videoHeight' ? HTMLVideoElement.prototype : media;
    patch(proto, name, {
      get(this: HTMLMediaElement) {
        return fields(this)[name];
      },
      set(this: HTMLMediaElement, value: never) {
        fields(this)[name] = value;
        for (const type of events[name] ?? []) this.dispatchEvent(new Event(type));
      },
    });
  }
  patch(media, 'play', {
    value: vi.fn(function (this: HTMLMediaElement) {
      const s = fields(this);
      s.paused = false;
      s.ended = false;
      this.dispatchEvent(new Event('play'));
      this.dispatchEvent(new Event('playing'));
      return Promise.resolve();
    }),
  });
  patch(media, 'pause', {
    value: vi.fn(function (this: HTMLMediaElement) {
      fields(this).paused = true;
      this.dispatchEvent(new Event('pause'));
    }),
  });
  patch(media, 'load', { value: () => {} });
  patch(media, 'canPlayType', { value: (type: string) => (type.includes('mpegurl') ? 'maybe' : '') });

  const drawnText: string[] = [];
  const context = {
    font: '',
    fillStyle: '',
    textAlign: 'left',
    textBaseline: 'alphabetic',
    save() {},
    restore() {},
    fillRect() {},
    drawImage() {},
    fillText(text: string) {
      drawnText.push(text);
    },
    measureText(text: string) {
      return { width: text.length * 10 };
    },
  };
  patch(HTMLCanvasElement.prototype, 'getContext', { value: () => context });

  const requestFullscreen = vi.fn(() => Promise.resolve());
  patch(HTMLElement.prototype, 'requestFullscreen', { value: requestFullscreen });
  patch(Document.prototype, 'fullscreenEnabled', { get: () => true });

  return {
    drawnText,
    requestFullscreen,
    restore: () => restorers.reverse().forEach((undo) => undo()),
  };
}
