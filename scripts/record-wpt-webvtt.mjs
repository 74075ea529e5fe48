/**
 * Records what a browser makes of each vendored web-platform-tests WebVTT case: loads every
 * src/contract/__fixtures__/wpt-webvtt/*.vtt into a <track> in Debian's Chromium (Playwright) and
 * writes the cues as the browser exposes them (VTTCue) to browser-cues.json beside them. The unit
 * test (src/contract/webvtt.wpt.test.ts) compares Lectern's reading with these.
 *
 *   node scripts/record-wpt-webvtt.mjs
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';

const dir = path.resolve(import.meta.dirname, '../src/contract/__fixtures__/wpt-webvtt');
const names = readdirSync(dir)
  .filter((f) => f.endsWith('.vtt'))
  .map((f) => f.slice(0, -4))
  .sort();

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage();
// A made-up origin served from here, so the <track> loads same-origin.
await page.route('http://wpt.test/**', (route) => {
  const file = new URL(route.request().url()).pathname.slice(1);
  if (!file) return route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>wpt</title>' });
  return route.fulfill({ contentType: 'text/vtt', body: readFileSync(path.join(dir, file)) });
});
await page.goto('http://wpt.test/');
const result = {};
for (const name of names) {
  result[name] = await page.evaluate(
    (src) =>
      new Promise((resolve) => {
        const video = document.createElement('video');
        const track = document.createElement('track');
        track.src = src;
        track.kind = 'subtitles';
        track.default = true;
        track.onerror = () => resolve(null);
        track.onload = () => {
          resolve(
            Array.from(video.textTracks[0].cues, (cue) => ({
              id: cue.id,
              startTime: cue.startTime,
              endTime: cue.endTime,
              text: cue.text,
              vertical: cue.vertical,
              line: cue.line,
              snapToLines: cue.snapToLines,
              lineAlign: cue.lineAlign,
              position: cue.position,
              positionAlign: cue.positionAlign,
              size: cue.size,
              align: cue.align,
              region: cue.region ? true : null,
            })),
          );
          video.remove();
        };
        video.appendChild(track);
        document.body.appendChild(video);
      }),
    `http://wpt.test/${name}.vtt`,
  );
}
await browser.close();
const version = browser.version();
writeFileSync(
  path.join(dir, 'browser-cues.json'),
  `${JSON.stringify({ browser: `Chromium ${version}`, cases: result }, null, 1)}\n`,
);
console.log(`recorded ${names.length} cases in Chromium ${version}`);
