import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { Gauge, type Registry } from 'prom-client';
import type { AppContext } from '../context';
import { liveClasses } from '../db/schema';
import { sessionOf } from '../media/delivery/fast-path';

/** A viewer counts while they fetched a live playlist within this long. */
const VIEWER_WINDOW_MS = 60_000;
/** The live videos are read again after this long (a scrape or a playlist request asks). */
const LIVE_VIDEOS_MS = 5_000;
const PLAYLIST_ROUTES = new Set([
  'GET /stream/videos/:id/master.m3u8',
  'GET /stream/videos/:id/:rendition/:file',
]);

/** What a node's ingest reports of each class it holds (ingest.ts). */
export interface IngestFigures {
  classId: string;
  /** Bits per second of the newest top-rung segment. */
  bitrate: number;
  /** The newest segment's program date time (undefined before the first). */
  newest: Date | undefined;
}

/** The ingests running against a registry (one per node; tests may run several). */
const ingests = new WeakMap<Registry, Set<() => IngestFigures[]>>();

/** Reports `figures` (a LiveIngest's) on `registry` until the returned function is called. */
export function reportIngest(registry: Registry, figures: () => IngestFigures[]): () => void {
  let set = ingests.get(registry);
  if (!set) ingests.set(registry, (set = new Set()));
  set.add(figures);
  return () => set.delete(figures);
}

/**
 * The live metrics (docs/OPERATIONS.md): classes live now (the database), viewers (distinct
 * sessions that fetched a live video's playlist in the last minute, on this process: a sum across
 * processes), and per class held by this node its ingest bitrate and segment lag (now − the newest
 * segment's program date time).
 */
export function installLiveMetrics(app: FastifyInstance, ctx: AppContext): void {
  const registry = ctx.metrics.registry;
  const seen = new Map<string, number>();
  let live: { at: number; ids: Promise<Set<string>> } | undefined;
  const liveVideos = () => {
    const now = Date.now();
    if (!live || now - live.at >= LIVE_VIDEOS_MS) {
      const ids = ctx.db
        .select({ videoId: liveClasses.videoId })
        .from(liveClasses)
        .where(eq(liveClasses.status, 'live'))
        .then((rows) => new Set(rows.map((r) => r.videoId)));
      live = { at: now, ids };
      ids.catch(() => (live = undefined));
    }
    return live.ids;
  };

  app.addHook('onResponse', async (request, reply) => {
    const key = request.routeOptions.config.routeKey;
    if (!key || !PLAYLIST_ROUTES.has(key) || reply.statusCode !== 200) return;
    if (!request.url.split('?')[0]!.endsWith('.m3u8')) return;
    const videoId = (request.params as { id?: string }).id;
    const session = sessionOf(request.raw);
    if (!videoId || !session || !(await liveVideos()).has(videoId)) return;
    // A digest, never the session token itself.
    seen.set(createHash('sha256').update(session).digest('base64url').slice(0, 22), Date.now());
  });

  const figures = () => [...(ingests.get(registry) ?? [])].flatMap((f) => f());
  registerLiveGauges(registry, {
    classesLive: async () => (await liveVideos()).size,
    viewers: () => {
      const since = Date.now() - VIEWER_WINDOW_MS;
      for (const [who, at] of seen) if (at < since) seen.delete(who);
      return seen.size;
    },
    figures,
    now: () => ctx.clock.now().getTime(),
  });
}

/** Where the live gauges read their values at scrape time. */
export interface LiveReadings {
  classesLive(): Promise<number>;
  viewers(): number;
  figures(): IngestFigures[];
  now(): number;
}

/** The live gauges on `registry` (the dashboard's test registers them too, to know their names). */
export function registerLiveGauges(registry: Registry, read: LiveReadings): void {
  new Gauge({
    name: 'lectern_live_classes_live',
    help: 'Live classes on the air now (status live), read from the database at scrape time.',
    registers: [registry],
    aggregator: 'max',
    async collect() {
      this.set(await read.classesLive());
    },
  });
  new Gauge({
    name: 'lectern_live_viewers',
    help: 'Distinct sessions that fetched a live class playlist in the last minute, on this process.',
    registers: [registry],
    collect() {
      this.set(read.viewers());
    },
  });
  new Gauge({
    name: 'lectern_live_ingest_bitrate_bits_per_second',
    help: "A class's ingest bitrate on the node holding it: the newest top-rung segment's bits per second.",
    labelNames: ['class'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const f of read.figures()) this.set({ class: f.classId }, f.bitrate);
    },
  });
  new Gauge({
    name: 'lectern_live_segment_lag_seconds',
    help: "A class's segment lag on the node holding it: now minus the newest segment's program date time.",
    labelNames: ['class'] as const,
    registers: [registry],
    collect() {
      this.reset();
      const now = read.now();
      for (const f of read.figures())
        if (f.newest) this.set({ class: f.classId }, Math.max(0, (now - f.newest.getTime()) / 1000));
    },
  });
}
