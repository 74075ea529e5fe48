import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Every metric Lectern exports, on a registry of its own (one per runtime, so tests can run several
 * apps in one process). prom-client rather than the OpenTelemetry SDK: the Prometheus text format is
 * the product here, and prom-client writes it directly, with no collector, no exporter pipeline and
 * a small dependency tree. docs/OPERATIONS.md lists the names; docs/grafana/lectern.json uses them.
 */

/** A route label for requests that matched no route of the table: one fixed value, never the raw URL. */
export const UNMATCHED_ROUTE = '(unmatched)';
/** A route label for the web app's pages and static files (served outside the route table). */
export const WEB_APP_ROUTE = '(web app)';

/** Seconds: from a cached playlist (1 ms) to a large upload chunk over a slow link (tens of seconds). */
const REQUEST_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Seconds of ffmpeg work per video: a remux of a short clip to a ladder rung of a long lecture. */
const PACKAGING_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 1200, 2400, 3600];
/** Seconds from pressing play to the first frame. */
export const STARTUP_BUCKETS = [0.25, 0.5, 1, 1.5, 2, 3, 5, 8, 13, 20, 30];

/** Where the gauges read at scrape time come from (the database, the pool). */
export interface MetricSources {
  /** Jobs by type and state, and viewers seen lately: one query each, cached briefly. */
  jobCounts(): Promise<{ type: string; state: string; count: number }[]>;
  activeViewers(): Promise<number>;
  /** PostgreSQL's pool; PGlite has one in-process connection and no pool. */
  pool(): { total: number; idle: number; waiting: number } | undefined;
  /** The file system holding DATA_DIR (the embedded database, local media, scratch space). */
  disk(): Promise<{ freeBytes: number; sizeBytes: number }>;
}

/** How long a scrape-time database figure is reused: a busy Prometheus (or two) costs one query. */
export const SCRAPE_CACHE_MS = 5_000;

function cached<T>(load: () => Promise<T>, now: () => number): () => Promise<T> {
  let value: { at: number; result: Promise<T> } | undefined;
  return () => {
    const t = now();
    // A clock set back (a wall clock stepped, a test's clock) reads again rather than keep a stale figure.
    if (!value || t - value.at >= SCRAPE_CACHE_MS || t < value.at) {
      const result = load();
      value = { at: t, result };
      // A failed read is not kept: the next scrape tries again.
      result.catch(() => (value = undefined));
    }
    return value.result;
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

export function createMetrics(options: { defaultMetrics?: boolean; now?: () => number } = {}) {
  const registry = new Registry();
  if (options.defaultMetrics !== false) collectDefaultMetrics({ register: registry });
  const now = options.now ?? Date.now;
  let sources: MetricSources | undefined;
  let jobCounts: MetricSources['jobCounts'] | undefined;
  let activeViewers: MetricSources['activeViewers'] | undefined;
  const registers = [registry];

  const requestDuration = new Histogram({
    name: 'http_server_request_duration_seconds',
    help: 'HTTP requests by route template, method and status class, from arrival to the last byte sent.',
    labelNames: ['route', 'method', 'status_class'] as const,
    buckets: REQUEST_BUCKETS,
    registers,
  });

  const jobs = new Gauge({
    name: 'lectern_jobs',
    help: 'Jobs in the queue by type and state (queued, running, done, failed, cancelled), read at scrape time.',
    labelNames: ['type', 'state'] as const,
    registers,
    // One database answers every process: across WEB_CONCURRENCY processes it is the same figure.
    aggregator: 'max',
    async collect() {
      if (!jobCounts) return;
      const rows = await jobCounts();
      this.reset();
      for (const row of rows) this.set({ type: row.type, state: row.state }, row.count);
    },
  });

  const viewers = new Gauge({
    name: 'lectern_active_viewers',
    help: 'Students whose player saved progress in the last 60 seconds (one per student and video).',
    registers,
    aggregator: 'max',
    async collect() {
      if (activeViewers) this.set(await activeViewers());
    },
  });

  const pool = new Gauge({
    name: 'lectern_db_pool_connections',
    help: 'PostgreSQL pool connections: total open, idle, and queries waiting for one (absent on PGlite).',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const stats = sources?.pool();
      if (!stats) return;
      this.set({ state: 'total' }, stats.total);
      this.set({ state: 'idle' }, stats.idle);
      this.set({ state: 'waiting' }, stats.waiting);
    },
  });

  const disk = new Gauge({
    name: 'lectern_data_dir_bytes',
    help: 'The file system holding DATA_DIR: free bytes (available to Lectern) and its size.',
    labelNames: ['state'] as const,
    registers,
    aggregator: 'max',
    async collect() {
      const stats = await sources?.disk().catch(() => undefined);
      if (!stats) return;
      this.set({ state: 'free' }, stats.freeBytes);
      this.set({ state: 'size' }, stats.sizeBytes);
    },
  });

  return {
    registry,
    requestDuration,
    disk,
    jobs,
    viewers,
    pool,
    packagingDuration: new Histogram({
      name: 'lectern_packaging_duration_seconds',
      help: "Wall time of packaging work done, by kind: remux (or encode) of the first rendition, then each ladder rung; recording: a live class's recording packaged whole.",
      labelNames: ['kind'] as const,
      buckets: PACKAGING_BUCKETS,
      registers,
    }),
    searchIndexDuration: new Histogram({
      name: 'lectern_search_index_seconds',
      help: "Wall time of the search.index job's work per source (captions, screen, speech) and outcome (done, failed, stopped: aborted or waiting for Tesseract), one observation per source a run worked on.",
      labelNames: ['source', 'outcome'] as const,
      buckets: PACKAGING_BUCKETS,
      registers,
    }),
    searchEntries: new Counter({
      name: 'lectern_search_entries_total',
      help: 'Search index entries written, by source: caption cues (a saved track, or the search.index job), screen readings and speech cues (the job).',
      labelNames: ['source'] as const,
      registers,
    }),
    searchFramesRead: new Counter({
      name: 'lectern_search_ocr_frames_total',
      help: 'Video frames Tesseract read for text on screen (identical frames skipped before OCR are not counted).',
      registers,
    }),
    uploadBytes: new Counter({
      name: 'lectern_upload_bytes_total',
      help: 'Bytes of uploaded video committed by the chunked upload.',
      registers,
    }),
    keyRefusals: new Counter({
      name: 'lectern_key_refusals_total',
      help: 'Playback key requests refused, by reason: rate-limit, no-access, closed, not-found, unreadable (the stored key does not open with this signing key), checkpoint (past a required checkpoint not passed yet).',
      labelNames: ['reason'] as const,
      registers,
    }),
    suspectedDownloads: new Counter({
      name: 'lectern_suspected_downloads_total',
      help: 'Sessions that asked for keys faster than a player (each burst counted once, as in the audit log).',
      registers,
    }),
    questionsAsked: new Counter({
      name: 'lectern_questions_total',
      help: 'Questions students asked at a moment of a lecture.',
      registers,
    }),
    liveClassMails: new Counter({
      name: 'lectern_live_class_mails_total',
      help: 'Mails about live classes to their students (kind: day, hour, update, cancel; outcome: sent, failed).',
      labelNames: ['kind', 'outcome'] as const,
      registers,
    }),
    questionAnswers: new Counter({
      name: 'lectern_question_answers_total',
      help: 'Answers staff posted to questions.',
      registers,
    }),
    playbackStartup: new Histogram({
      name: 'lectern_playback_startup_seconds',
      help: 'Seconds from play to the first frame, as players report them.',
      buckets: STARTUP_BUCKETS,
      registers,
    }),
    playbackStalls: new Counter({
      name: 'lectern_playback_stalls_total',
      help: 'Times playback stopped to wait for data (after the first frame, seeks excluded), as players report them.',
      registers,
    }),
    playbackStallSeconds: new Counter({
      name: 'lectern_playback_stall_seconds_total',
      help: 'Seconds players spent stalled.',
      registers,
    }),
    playbackPlayedSeconds: new Counter({
      name: 'lectern_playback_played_seconds_total',
      help: 'Seconds of media played, as progress saves report them (the stall ratio is stall seconds over this plus stall seconds).',
      registers,
    }),
    playbackErrors: new Counter({
      name: 'lectern_playback_errors_total',
      help: 'Fatal playback errors, by browser family.',
      labelNames: ['browser'] as const,
      registers,
    }),
    /** Connects the scrape-time gauges to the database and the pool (done once the runtime is open). */
    setSources(next: MetricSources) {
      sources = next;
      jobCounts = cached(() => next.jobCounts(), now);
      activeViewers = cached(() => next.activeViewers(), now);
    },
  };
}
