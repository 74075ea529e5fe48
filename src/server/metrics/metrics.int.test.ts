import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { healthMessages } from '../../contract/playback-health';
import { splitRouteKey } from '../../contract/route-kit';
import { routes } from '../../contract/routes';
import { videoProgress } from '../db/schema';
import { enqueueJob } from '../jobs/queue';
import { testEngines } from '../../../test/support/databases';
import { watchedCourse } from '../../../test/support/watch-fixtures';
import { OPEN_TIME, suiteAdmin, suiteServer } from '../../../test/support/test-server';
import { SCRAPE_CACHE_MS, UNMATCHED_ROUTE, WEB_APP_ROUTE } from './metrics';
import { playbackHealth } from './playback-health';

const TOKEN = 'metrics-token-for-the-tests-0123456789';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** The value of one series in Prometheus text, or undefined when it is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** Every value the `route` label takes in the request histogram. */
const routeLabels = (text: string) =>
  new Set(
    [...text.matchAll(/^http_server_request_duration_seconds_count\{route="([^"]*)"/gm)].map((m) => m[1]!),
  );

describe.each(testEngines())('metrics and playback health (%s)', (engine) => {
  const server = suiteServer({ engine, env: { METRICS_TOKEN: TOKEN } });
  const admin = suiteAdmin(server);
  const scrape = async () => {
    const res = await server.client().get('/metrics', { authorization: `Bearer ${TOKEN}` });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.body as string;
  };

  it('refuses /metrics on the main port without the bearer token', async () => {
    for (const authorization of [
      undefined,
      'Bearer wrong-token-wrong-token-wrong',
      TOKEN,
      `Basic ${TOKEN}`,
    ]) {
      const res = await server.client().get('/metrics', authorization ? { authorization } : {});
      expect([res.status, res.body.message]).toEqual([403, healthMessages.metricsRefused]);
    }
    const text = await scrape();
    expect(text).toContain('# TYPE http_server_request_duration_seconds histogram');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });

  it('labels requests by route template only, whatever paths a scanner tries', async () => {
    const client = server.client();
    await client.get('/api/time');
    const junk = [
      '/wp-login.php',
      '/api/nothing/here',
      `/api/courses/${crypto.randomUUID()}`,
      `/stream/videos/${crypto.randomUUID()}/v720/seg_00001.ts?t=forged`,
      '/thumbnails/..%2f..%2fetc%2fpasswd',
      '/%00',
      '/api/admin/trace/ABCD1234',
    ];
    for (let i = 0; i < 200; i++) {
      const path = junk[i % junk.length]!.replace('here', `here-${i}`) + (i % 3 ? `?q=${i}` : '');
      await client.request(i % 4 ? 'GET' : 'POST', path, i % 4 ? {} : { json: { x: i } });
    }
    const templates = new Set(Object.keys(routes).map((key) => splitRouteKey(key).path));
    const labels = routeLabels(await scrape());
    expect(labels.has('/api/time')).toBe(true);
    expect(labels.has(UNMATCHED_ROUTE)).toBe(true);
    expect(
      [...labels].filter((l) => !templates.has(l) && l !== UNMATCHED_ROUTE && l !== WEB_APP_ROUTE),
    ).toEqual([]);
  });

  it("counts each request once, a GET route's HEAD twin and unmatched paths included", async () => {
    const client = server.client();
    const counted = async () => {
      const text = await scrape();
      const of = (route: string, method: string, cls: string) =>
        sample(
          text,
          `http_server_request_duration_seconds_count{route="${route}",method="${method}",status_class="${cls}"}`,
        ) ?? 0;
      return [
        of('/api/time', 'GET', '2xx'),
        of('/api/time', 'HEAD', '2xx'),
        of(UNMATCHED_ROUTE, 'GET', '4xx'),
      ];
    };
    const before = await counted();
    for (let i = 0; i < 3; i++) await client.get('/api/time');
    for (let i = 0; i < 2; i++) await client.request('HEAD', '/api/time');
    await client.get('/api/no-such-route');
    // The scrape itself is not on these routes, so only the six requests above count.
    expect((await counted()).map((n, i) => n - before[i]!)).toEqual([3, 2, 1]);
  });

  it('counts jobs by type and state from the queue', async () => {
    await enqueueJob(
      server.ctx.db,
      'accounts.purge-expired',
      {},
      { runAt: new Date(Date.now() + 3_600_000) },
    );
    // The gauge is read at most every 5 s of the server's clock: move past a scrape made by an earlier test.
    server.clock.advance(SCRAPE_CACHE_MS + 100);
    const text = await scrape();
    expect(sample(text, 'lectern_jobs{type="accounts.purge-expired",state="queued"}')).toBeGreaterThanOrEqual(
      1,
    );
  });

  it('keeps what players report with their saves, clamped, and shows it to admins for 24 h', async () => {
    server.clock.set(OPEN_TIME);
    const empty = await admin.get('/api/admin/playback-health');
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({
      playbacks: 0,
      startupP50: null,
      stallRatio: null,
      errorRate: null,
      browsers: [],
    });

    const { client, student } = await server.studentClient();
    const { videoIds } = await watchedCourse(server, [student], [600, 600, 600]);
    const [first, second, third] = videoIds as [string, string, string];
    const save = (videoId: string, body: object, userAgent = CHROME) =>
      client.request('POST', '/api/progress', {
        json: { videoId, ...body },
        headers: { 'user-agent': userAgent },
      });

    // An old player: no health, saved as before.
    expect((await save(first, { position: 1, watched: 1 })).status).toBe(200);
    const health = (h: object) => ({ stalls: 0, stallMs: 0, playedMs: 0, ...h });
    expect(
      (await save(first, { position: 2, watched: 2, health: health({ startupMs: 800, playedMs: 9_000 }) }))
        .status,
    ).toBe(200);
    server.clock.advance(10_000);
    expect(
      (
        await save(first, {
          position: 12,
          watched: 12,
          health: health({ stalls: 2, stallMs: 1_000, playedMs: 9_000 }),
        })
      ).status,
    ).toBe(200);
    // Forged: an hour to start and a million stalls count as the limits.
    expect(
      (await save(second, { position: 3, watched: 3, health: health({ startupMs: 3_600_000, stalls: 1e6 }) }))
        .status,
    ).toBe(200);
    // A player that failed before its first frame: the error is kept, no progress row is made.
    const failed = await save(
      third,
      { position: 0, watched: 0, health: health({ error: 'manifestLoadError' }) },
      FIREFOX,
    );
    expect([failed.status, failed.body.progress]).toEqual([
      200,
      { position: 0, watched: 0, completed: false },
    ]);
    const rows = await server.ctx.db.select().from(videoProgress).where(eq(videoProgress.videoId, third));
    expect(rows).toEqual([]);
    // Broken reports are refused like any bad body.
    const negative = await save(first, { position: 12, watched: 12, health: health({ stalls: -1 }) });
    expect([negative.status, negative.body.message]).toEqual([400, healthMessages.invalid]);
    const badCode = await save(first, { position: 12, watched: 12, health: health({ error: '<script>' }) });
    expect(badCode.status).toBe(400);

    const panel = await admin.get('/api/admin/playback-health');
    expect(panel.status).toBe(200);
    expect(panel.body.playbacks).toBe(3); // two first frames and one failure
    expect(panel.body.startupP50).toBeCloseTo(30.4, 5); // median of 0.8 s and 60 s (clamped)
    expect(panel.body.startupP95).toBeCloseTo(57.04, 5);
    expect(panel.body.stallRatio).toBeCloseTo(1_000 / 19_000, 5);
    expect(panel.body.errorRate).toBeCloseTo(1 / 3, 5);
    expect(panel.body.browsers).toEqual([
      { browser: 'chrome', playbacks: 2, errors: 0 },
      { browser: 'firefox', playbacks: 1, errors: 1 },
    ]);

    const text = await scrape();
    expect(sample(text, 'lectern_playback_startup_seconds_count')).toBe(2);
    expect(sample(text, 'lectern_playback_startup_seconds_sum')).toBeCloseTo(60.8, 5);
    expect(sample(text, 'lectern_playback_stalls_total')).toBe(102);
    expect(sample(text, 'lectern_playback_stall_seconds_total')).toBe(1);
    expect(sample(text, 'lectern_playback_errors_total{browser="firefox"}')).toBe(1);

    // A day later the window is empty again.
    const dayLater = new Date(server.clock.now().getTime() + 25 * 3_600_000);
    expect((await playbackHealth(server.ctx.db, dayLater)).playbacks).toBe(0);
  });

  it('counts active viewers from recent saves', async () => {
    // The earlier test's saves were moments ago on the suite's clock; the figure is cached 5 s of it.
    server.clock.advance(SCRAPE_CACHE_MS + 100);
    expect(sample(await scrape(), 'lectern_active_viewers')).toBeGreaterThanOrEqual(1);
  });
});
