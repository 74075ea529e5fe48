/**
 * A small ring buffer of what the player saw (media element events, hls.js events and errors, the
 * play() promise), kept on `window.__lecternPlayerLog` for the engine journeys (e2e/engines), which
 * read it when a journey fails: WebKitWebDriver cannot read MiniBrowser's console. Only kept under
 * automation (navigator.webdriver) or when `localStorage['lectern:player-log']` is set, for a
 * support session; otherwise `playerLog` does nothing.
 */
const SIZE = 300;

export interface PlayerLogEntry {
  /** performance.now(), ms. */
  t: number;
  what: string;
}

type LogWindow = Window & { __lecternPlayerLog?: PlayerLogEntry[] };

function enabled(): boolean {
  if (typeof window === 'undefined') return false;
  try {
    return navigator.webdriver === true || window.localStorage.getItem('lectern:player-log') !== null;
  } catch {
    return navigator.webdriver === true;
  }
}

let on: boolean | undefined;

export function playerLog(what: string): void {
  on ??= enabled();
  if (!on) return;
  const w = window as LogWindow;
  const log = (w.__lecternPlayerLog ??= []);
  log.push({ t: Math.round(performance.now()), what });
  if (log.length > SIZE) log.splice(0, log.length - SIZE);
}

/** The element's state in one line: ready and network state, position, buffered ranges. */
export function describeMedia(video: HTMLMediaElement): string {
  const ranges: string[] = [];
  for (let i = 0; i < video.buffered.length; i++)
    ranges.push(`${video.buffered.start(i).toFixed(3)}-${video.buffered.end(i).toFixed(3)}`);
  return (
    `rs=${video.readyState} ns=${video.networkState} t=${video.currentTime.toFixed(3)} ` +
    `paused=${video.paused} seeking=${video.seeking} buf=[${ranges.join(',')}]` +
    (video.error ? ` error=${video.error.code}` : '')
  );
}

/** Logs every event of `video` with its state, until the returned function is called. */
export function logMediaEvents(video: HTMLMediaElement): () => void {
  on ??= enabled();
  if (!on) return () => {};
  const events = [
    'loadstart',
    'emptied',
    'loadedmetadata',
    'loadeddata',
    'canplay',
    'canplaythrough',
    'play',
    'playing',
    'pause',
    'waiting',
    'stalled',
    'suspend',
    'seeking',
    'seeked',
    'ended',
    'error',
    'abort',
    'durationchange',
  ];
  const listener = (event: Event) => playerLog(`video ${event.type} ${describeMedia(video)}`);
  for (const name of events) video.addEventListener(name, listener);
  return () => {
    for (const name of events) video.removeEventListener(name, listener);
  };
}
