import { mkdir, writeFile } from 'node:fs/promises';
import type { EngineDriver } from './driver';

/**
 * What the page shows of its player when a journey fails, read with the driver (WebKitWebDriver
 * cannot read MiniBrowser's console): the <video>'s state, the player's `data-state`, the player's
 * own event log (src/web/player/player-log.ts, kept under automation) and the last requests.
 */
export async function pageDiagnostics(d: EngineDriver): Promise<Record<string, unknown>> {
  return d.evaluate(() => {
    const video = document.querySelector('video');
    const ranges = (r: TimeRanges | undefined) =>
      r ? Array.from({ length: r.length }, (_, i) => [r.start(i), r.end(i)]) : [];
    const player = document.querySelector<HTMLElement>('[aria-label^="Video player"]');
    const requests = performance
      .getEntriesByType('resource')
      .slice(-40)
      .map((e) => {
        const r = e as PerformanceResourceTiming;
        return `${Math.round(r.startTime)}+${Math.round(r.duration)}ms ${r.initiatorType} ${r.responseStatus ?? ''} ${r.transferSize} ${r.name.replace(location.origin, '').slice(0, 120)}`;
      });
    return {
      url: location.href,
      now: Math.round(performance.now()),
      webdriver: navigator.webdriver,
      player: player ? { ...player.dataset } : null,
      video: video
        ? {
            src: video.currentSrc.slice(0, 80),
            readyState: video.readyState,
            networkState: video.networkState,
            currentTime: video.currentTime,
            duration: video.duration,
            paused: video.paused,
            seeking: video.seeking,
            ended: video.ended,
            error: video.error ? `${video.error.code} ${video.error.message}` : null,
            buffered: ranges(video.buffered),
            played: ranges(video.played),
            videoSize: `${video.videoWidth}x${video.videoHeight}`,
            quality: (video as HTMLVideoElement).getVideoPlaybackQuality?.(),
          }
        : null,
      log: (
        window as unknown as { __lecternPlayerLog?: { t: number; what: string }[] }
      ).__lecternPlayerLog?.map((e) => `${e.t} ${e.what}`),
      requests,
    };
  });
}

/**
 * Writes the page's diagnostics to `file` (JSON) and returns a short summary for the failure
 * message: the video's state and the player log's last lines.
 */
export async function saveDiagnostics(d: EngineDriver, file: string): Promise<string> {
  const info = await pageDiagnostics(d);
  await mkdir(file.slice(0, file.lastIndexOf('/')), { recursive: true });
  await writeFile(file, `${JSON.stringify(info, null, 2)}\n`);
  const log = (info.log as string[] | undefined) ?? [];
  return [
    `player: ${JSON.stringify(info.player)}`,
    `video: ${JSON.stringify(info.video)}`,
    `player log (last 12 of ${log.length}):`,
    ...log.slice(-12).map((line) => `  ${line}`),
    `(all in ${file})`,
  ].join('\n    ');
}
