import { createCipheriv } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, inArray, lte, ne } from 'drizzle-orm';
import type { AppContext } from '../context';
import { liveClasses, liveIngests, videos } from '../db/schema';
import { inputArgs, type MediaTools } from '../storage/ffmpeg';
import { describeSegment, INFO_FILE, PLAYLIST, type RenditionInfo } from '../media/packaging/hls';
import { keyUriOf, periodAt, videoKeysFor, type KeysFor } from '../media/packaging/segment-keys';
import { mediaKeys, readText, renditionName, type MediaStore } from '../storage';
import { classEnd } from '../http/opening-gate';
import { IngestLeases, LIVE_LEASE_MS } from './lease';
import { reportIngest, type IngestFigures } from './live-metrics';
import type { LiveClassRow } from './presenter';
import { queueRecording } from './recording';
import { onScheduleChange } from './schedule-changes';
import { openStreamKey } from './stream-keys';

/** Live segments are short: a player three segments behind is ~6 s behind the encoder. */
export const LIVE_SEGMENT_SECONDS = 2;
/** The one rung encoded live; the encoder's own picture is copied as the top rung. */
export const LIVE_LOW_HEIGHT = 360;
/** A class's listener opens this long before its start (the instructor tests the stream). */
export const LIVE_LEAD_MS = 30 * 60_000;
/** Classes whose listener is open at `now`: not ended, starting within LIVE_LEAD_MS (or started). */
export const dueAt = (now: Date) =>
  and(
    inArray(liveClasses.status, ['scheduled', 'live']),
    lte(liveClasses.startsAt, new Date(now.getTime() + LIVE_LEAD_MS)),
  );

/**
 * EXT-X-TARGETDURATION: the segment length, or the longest segment so far rounded (the spec's rule)
 * when an encoder's keyframes cut longer ones. Not more: hls.js never starts a live stream closer to
 * the end than one target duration, whatever its hold-back (latency-controller's liveSyncPosition),
 * so a target of 4 s held viewers 4 s back instead of the player's 3.
 */
const MIN_TARGET_SECONDS = LIVE_SEGMENT_SECONDS;

/**
 * How much of a live input ffmpeg reads to learn its streams before it starts: its defaults (5 MB,
 * up to 5 s) kept that much of the picture queued, and the 360p encode in the same process caught
 * it up slowly or never on a busy machine, so the whole class ran that much later. An encoder's
 * MPEG-TS or FLV announces its streams at once, and its first packet is a keyframe.
 */
const LIVE_PROBE = ['-probesize', '500000', '-analyzeduration', '1000000'];

type RungName = 'top' | 'low';
type IngestSource = 'srt' | 'rtmp';

interface PublishedSegment {
  file: string;
  duration: number;
  /** Seconds of the class before this segment (its key period comes from it). */
  start: number;
  /** Wall-clock time of its first frame, stamped by us (ffmpeg's own run late). */
  programDate: Date;
  /** First segment after the encoder reconnected. */
  discontinuity: boolean;
}

/** One rendition as it grows: what ffmpeg wrote in the current attempt, what we published. */
class Rung {
  info: RenditionInfo | undefined;
  readonly published: PublishedSegment[] = [];
  /** Entries of ffmpeg's playlist of the current attempt already published. */
  taken = 0;
  seconds = 0;
  /** Wall-clock time of the current attempt's first frame. */
  anchor: number | undefined;
  attemptStart = 0;
  newAttempt = false;
  constructor(readonly name: RungName) {}
}

/** ffmpeg's playlist: each complete segment's file and length. */
export function segmentsOf(playlist: string): { file: string; duration: number }[] {
  const out: { file: string; duration: number }[] = [];
  let duration = 0;
  for (const line of playlist.split('\n')) {
    const inf = /^#EXTINF:([\d.]+)/.exec(line);
    if (inf) duration = Number(inf[1]);
    else if (line && !line.startsWith('#')) out.push({ file: line.trim(), duration });
  }
  return out;
}

/** The segments of a live playlist this module wrote (livePlaylist), read back. */
export function publishedOf(playlist: string): PublishedSegment[] {
  const out: PublishedSegment[] = [];
  let start = 0;
  let programDate = new Date(0);
  let discontinuity = false;
  let duration = 0;
  for (const line of playlist.split('\n')) {
    if (line === '#EXT-X-DISCONTINUITY') discontinuity = true;
    const pdt = /^#EXT-X-PROGRAM-DATE-TIME:(.+)$/.exec(line);
    if (pdt) programDate = new Date(pdt[1]!);
    const inf = /^#EXTINF:([\d.]+)/.exec(line);
    if (inf) duration = Number(inf[1]);
    if (line && !line.startsWith('#')) {
      out.push({ file: line.trim(), duration, start, programDate, discontinuity });
      start += duration;
      discontinuity = false;
    }
  }
  return out;
}

/** HLS's implicit IV (the media sequence number), as packaging encrypts (segment-keys.ts). */
function encrypt(bytes: Buffer, key: Buffer, sequence: number): Buffer {
  const iv = Buffer.alloc(16);
  iv.writeUInt32BE(sequence, 12);
  const cipher = createCipheriv('aes-128-cbc', key, iv);
  return Buffer.concat([cipher.update(bytes), cipher.final()]);
}

/**
 * A growing (EVENT) playlist of the segments published so far: keys by period as packaged lectures
 * have them (the delivery rewrites `key:N` to the key route), our own program date time on every
 * segment, a discontinuity where the encoder reconnected, and the end once the class is over.
 */
export function livePlaylist(published: PublishedSegment[], ended: boolean, rotationSeconds: number): string {
  const longest = Math.max(0, ...published.map((s) => s.duration));
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:3',
    `#EXT-X-TARGETDURATION:${Math.max(MIN_TARGET_SECONDS, Math.round(longest))}`,
    '#EXT-X-MEDIA-SEQUENCE:0',
    '#EXT-X-PLAYLIST-TYPE:EVENT',
  ];
  let current = -1;
  for (const segment of published) {
    if (segment.discontinuity) lines.push('#EXT-X-DISCONTINUITY');
    const period = periodAt(segment.start, rotationSeconds);
    if (period !== current) {
      lines.push(`#EXT-X-KEY:METHOD=AES-128,URI="${keyUriOf(period)}"`);
      current = period;
    }
    lines.push(
      `#EXT-X-PROGRAM-DATE-TIME:${segment.programDate.toISOString()}`,
      `#EXTINF:${segment.duration.toFixed(3)},`,
      segment.file,
    );
  }
  if (ended) lines.push('#EXT-X-ENDLIST');
  return `${lines.join('\n')}\n`;
}

/**
 * One class's ingest on this node: its SRT listener (one ffmpeg writing the copied top rung and the
 * 360p rung in 2 s segments into scratch), and the publisher that encrypts each new segment with the
 * video's rotating keys, stores it and rewrites the live playlists. An encoder that drops may come
 * back within the reconnect grace: a new listener continues the same playlists after a
 * discontinuity.
 */
class ClassIngest {
  private readonly rungs = { top: new Rung('top'), low: new Rung('low') };
  private attempt = 0;
  private listener: AbortController | undefined;
  /** Where the running ffmpeg reads: its SRT listener, or nginx's copy of an RTMP encoder's stream. */
  private source: IngestSource = 'srt';
  /** nginx accepted an RTMP encoder for this class (live_ingests.rtmp_since, from its callback). */
  rtmpOnAir = false;
  private running: Promise<void> | undefined;
  private listenerDone = false;
  /** Real time (ms) of the last new segment, and of the listener's end after a connection. */
  private lastSegmentAt: number | undefined;
  private droppedAt: number | undefined;
  private readonly keysFor: KeysFor;
  private readonly store: MediaStore;
  /** The last stamp written on the video's row: each change gets a later one. */
  private stamp = 0;
  finished = false;
  /** Bits per second of the newest top-rung segment (metrics). */
  bitrate = 0;
  /** Publishing runs one at a time, whether a step or ffmpeg's playlist changing asked for it. */
  private publishing: Promise<boolean> = Promise.resolve(false);
  /** Watchers of the current attempt's rung folders (publish()'s trigger between steps). */
  private watchers: FSWatcher[] = [];

  constructor(
    private readonly ctx: AppContext,
    private readonly tools: MediaTools,
    public row: LiveClassRow,
    storeKind: MediaStore['kind'],
  ) {
    this.keysFor = videoKeysFor(ctx, row.videoId);
    this.store = ctx.media.of(storeKind);
  }

  /**
   * A class already live when this node took it (a restart mid-class): its published playlists and
   * rung descriptions are read back, so the recording continues after a discontinuity instead of
   * starting over. What an earlier run of this node left in the class's scratch folder goes first: its
   * playlists list segments it published and removed (read again, they failed every step until the
   * encoder came back), and what it had not published is lost as on a move to another node.
   */
  async resume(): Promise<void> {
    await rm(this.ctx.media.scratch.path(`live-${this.row.id}`), { recursive: true, force: true });
    if (this.row.status !== 'live') return;
    const [video] = await this.ctx.db
      .select({ renditions: videos.renditions })
      .from(videos)
      .where(eq(videos.id, this.row.videoId));
    const heights = [...(video?.renditions ?? [])].sort((a, b) => b - a);
    for (const [i, height] of heights.slice(0, 2).entries()) {
      const rung = i === 0 ? this.rungs.top : this.rungs.low;
      const file = (name: string) => mediaKeys.videoFile(this.row.videoId, renditionName(height), name);
      const info = await readText(this.store, file(INFO_FILE));
      const playlist = await readText(this.store, file(PLAYLIST));
      if (!info || !playlist) continue;
      rung.info = JSON.parse(info) as RenditionInfo;
      rung.published.push(...publishedOf(playlist));
      rung.seconds = rung.published.reduce((sum, s) => sum + s.duration, 0);
    }
    // The encoder lost this node with it: the reconnect grace runs from now.
    if (this.rungs.top.published.length) {
      this.lastSegmentAt = performance.now();
      this.droppedAt = performance.now();
    }
  }

  private dir(rung: RungName, attempt = this.attempt) {
    return this.ctx.media.scratch.path(path.join(`live-${this.row.id}`, `a${attempt}`, rung));
  }

  /**
   * Starts (or, after a drop, restarts) the class's ffmpeg: its SRT listener, or, while nginx has an
   * RTMP encoder on the air for it, a reader of that stream (rtmp.ts).
   */
  async listen(): Promise<void> {
    this.attempt += 1;
    this.source = this.rtmpOnAir ? 'rtmp' : 'srt';
    for (const rung of Object.values(this.rungs)) {
      rung.taken = 0;
      rung.anchor = undefined;
      rung.attemptStart = rung.seconds;
      rung.newAttempt = rung.published.length > 0;
    }
    await mkdir(this.dir('top'), { recursive: true });
    await mkdir(this.dir('low'), { recursive: true });
    this.watch();
    const input = this.source === 'rtmp' ? this.rtmpInput() : this.srtInput();
    const hls = (rung: RungName) => [
      '-f',
      'hls',
      '-hls_time',
      String(LIVE_SEGMENT_SECONDS),
      '-hls_list_size',
      '0',
      '-hls_segment_type',
      'mpegts',
      '-hls_segment_filename',
      path.join(this.dir(rung), 's_%05d.ts'),
      path.join(this.dir(rung), PLAYLIST),
    ];
    const args = [
      ...input,
      // The top rung: the encoder's H.264 as it is (no re-encode).
      ...['-map', '0:v:0', '-map', '0:a:0?', '-sn', '-dn', '-c:v', 'copy', '-c:a', 'copy'],
      ...hls('top'),
      // The 360p rung, keyframes on the 2 s grid.
      ...['-map', '0:v:0', '-map', '0:a:0?', '-sn', '-dn', '-vf', `scale=-2:${LIVE_LOW_HEIGHT}`],
      ...['-c:v', 'libx264', '-preset', 'veryfast', '-tune', 'zerolatency', '-pix_fmt', 'yuv420p'],
      ...['-b:v', '800k', '-maxrate', '900k', '-bufsize', '1800k', '-sc_threshold', '0'],
      ...['-force_key_frames', `expr:gte(t,n_forced*${LIVE_SEGMENT_SECONDS})`, '-c:a', 'copy'],
      ...hls('low'),
    ];
    this.listener = new AbortController();
    this.listenerDone = false;
    this.running = this.tools
      .ffmpeg(args, { signal: this.listener.signal })
      .catch((error: unknown) => {
        if (!this.listener?.signal.aborted)
          this.ctx.logger.warn(
            { classId: this.row.id, error: String(error) },
            'live ingest: the listener stopped',
          );
      })
      .finally(() => {
        this.listenerDone = true;
      });
  }

  /** The class's SRT listener: the passphrase (the stream key) is checked in SRT's handshake. */
  private srtInput(): string[] {
    const key = openStreamKey(this.ctx.signingKey, this.row.id, this.row.streamKey);
    const url = `srt://${this.ctx.config.host}:${this.row.srtPort}?mode=listener&passphrase=${key}&pbkeylen=16`;
    return [...LIVE_PROBE, ...inputArgs(url, 'mpegts')];
  }

  /**
   * nginx's copy of the class's RTMP stream, named by the class's id (nginx renamed it when Lectern
   * accepted the key): no key on this command line. It ends when the encoder leaves nginx; a stalled
   * connection is given up after 10 s.
   */
  private rtmpInput(): string[] {
    return [
      '-rw_timeout',
      '10000000',
      ...LIVE_PROBE,
      ...inputArgs(`${this.ctx.config.live.rtmpPull}/${this.row.id}`, 'flv'),
    ];
  }

  /**
   * Publishes as soon as ffmpeg lists a segment (it rewrites its playlist then), rather than at the
   * next step: the step (pollMs) still publishes too, should an event be missed.
   */
  private watch(): void {
    this.unwatch();
    for (const rung of ['top', 'low'] as const) {
      try {
        const watcher = watch(this.dir(rung), (_event, file) => {
          if (this.finished || !file?.startsWith(PLAYLIST)) return;
          this.publish().catch((error: unknown) =>
            this.ctx.logger.warn(
              { classId: this.row.id, error: String(error) },
              'live ingest: publishing failed',
            ),
          );
        });
        watcher.on('error', () => watcher.close());
        this.watchers.push(watcher);
      } catch {
        // No file-system events here: the step publishes.
      }
    }
  }

  private unwatch(): void {
    for (const watcher of this.watchers) watcher.close();
    this.watchers = [];
  }

  /** Publishes what ffmpeg finished since the last call; answers whether anything was new. */
  publish(): Promise<boolean> {
    const next = this.publishing.catch(() => false).then(() => this.publishNew());
    this.publishing = next;
    return next;
  }

  private async publishNew(): Promise<boolean> {
    let fresh = false;
    for (const rung of Object.values(this.rungs)) {
      const text = await readFile(path.join(this.dir(rung.name), PLAYLIST), 'utf8').catch(() => '');
      const segments = segmentsOf(text);
      for (const segment of segments.slice(rung.taken)) {
        await this.publishSegment(rung, segment);
        rung.taken += 1;
        fresh = true;
      }
    }
    if (fresh) {
      this.lastSegmentAt = performance.now();
      this.droppedAt = undefined;
      await this.writePlaylists(false);
    }
    return fresh;
  }

  private async publishSegment(rung: Rung, segment: { file: string; duration: number }) {
    const local = path.join(this.dir(rung.name), segment.file);
    const plain = await readFile(local);
    const now = this.ctx.clock.now().getTime();
    // The segment was complete when it appeared: its first frame was its length earlier.
    rung.anchor ??= now - segment.duration * 1000;
    if (!rung.info) {
      rung.info = await this.describe(rung, local, plain.length, segment.duration);
      if (!rung.info) return;
    }
    const sequence = rung.published.length;
    const start = rung.seconds;
    const period = periodAt(start, this.ctx.config.keyRotationSeconds);
    const key = (await this.keysFor([period])).get(period)!;
    const file = `seg_${String(sequence).padStart(5, '0')}.ts`;
    await this.store.put(
      mediaKeys.videoFile(this.row.videoId, renditionName(rung.info.height), file),
      encrypt(plain, key, sequence),
      { contentType: 'video/mp2t' },
    );
    rung.published.push({
      file,
      duration: segment.duration,
      start,
      programDate: new Date(rung.anchor + (start - rung.attemptStart) * 1000),
      discontinuity: rung.newAttempt,
    });
    rung.newAttempt = false;
    rung.seconds += segment.duration;
    if (rung.name === 'top') this.bitrate = Math.round((plain.length * 8) / Math.max(segment.duration, 0.5));
    await rm(local, { force: true });
  }

  /**
   * A rung's description from its first segment (size, codecs, frame rate), stored as packaging
   * stores it; the 360p rung is dropped when the encoder's own picture is no higher.
   */
  private async describe(rung: Rung, file: string, bytes: number, duration: number) {
    const probe = await this.tools.probe(file);
    if (!probe?.video) return undefined;
    if (rung.name === 'low' && (this.rungs.top.info?.height ?? Infinity) <= LIVE_LOW_HEIGHT) return undefined;
    const rate = Math.round((bytes * 8) / Math.max(duration, 0.5));
    const info: RenditionInfo = {
      width: probe.video.width,
      height: probe.video.height,
      bandwidth: Math.round(rate * 1.5),
      averageBandwidth: rate,
      ...(await describeSegment(this.tools, file)),
    };
    await this.store.put(
      mediaKeys.videoFile(this.row.videoId, renditionName(info.height), INFO_FILE),
      Buffer.from(JSON.stringify(info)),
      { contentType: 'application/json' },
    );
    return info;
  }

  private async writePlaylists(ended: boolean) {
    const heights: number[] = [];
    for (const rung of Object.values(this.rungs)) {
      if (!rung.info || !rung.published.length) continue;
      heights.push(rung.info.height);
      await this.store.put(
        mediaKeys.videoFile(this.row.videoId, renditionName(rung.info.height), PLAYLIST),
        Buffer.from(livePlaylist(rung.published, ended, this.ctx.config.keyRotationSeconds)),
        { contentType: 'application/vnd.apple.mpegurl' },
      );
    }
    const now = this.ctx.clock.now();
    // The row's stamp names the playlists' version: the delivery reads them again after each change.
    await this.ctx.db
      .update(videos)
      .set({
        status: 'ready',
        renditions: heights.sort((a, b) => b - a),
        durationSeconds: this.rungs.top.seconds,
        updatedAt: new Date((this.stamp = Math.max(this.stamp + 1, now.getTime()))),
      })
      .where(eq(videos.id, this.row.videoId));
    if (this.row.status === 'scheduled') {
      const [saved] = await this.ctx.db
        .update(liveClasses)
        .set({ status: 'live', liveAt: now, updatedAt: now })
        .where(eq(liveClasses.id, this.row.id))
        .returning();
      if (saved) this.row = saved;
      this.ctx.logger.info({ classId: this.row.id, videoId: this.row.videoId }, 'live class: on air');
    }
  }

  /**
   * One step of the class's life: publish; restart a listener whose encoder dropped; end the class
   * once the grace after a drop passed without a reconnect, or its time is up.
   */
  async step(): Promise<void> {
    if (this.finished) return;
    await this.publish();
    const timeUp = this.ctx.clock.now().getTime() >= classEnd(this.row).getTime();
    // An RTMP encoder came on the air while the SRT listener waited (or the other way round): the
    // running ffmpeg stops, what it finished is published, and the other source opens.
    if (!this.listenerDone && this.source !== (this.rtmpOnAir ? 'rtmp' : 'srt')) {
      this.listener?.abort();
      await this.running;
      await this.publish();
    }
    if (this.listenerDone && !timeUp) {
      if (this.lastSegmentAt !== undefined && this.droppedAt === undefined)
        this.droppedAt = performance.now();
      await this.listen();
    }
    const graceOver =
      this.droppedAt !== undefined &&
      performance.now() - this.droppedAt >= this.ctx.config.live.reconnectSeconds * 1000;
    if (timeUp || graceOver) await this.finish();
  }

  /**
   * The end: the listener stops, the last segments go out, the playlists get their end, and the
   * recording's packaging is queued with the class's end (once, however often this runs).
   */
  async finish(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    this.unwatch();
    this.listener?.abort();
    await this.running;
    await this.publish();
    const now = this.ctx.clock.now();
    const streamed = this.rungs.top.published.length > 0;
    if (streamed) await this.writePlaylists(true);
    else
      await this.ctx.db
        .update(videos)
        .set({ status: 'failed', failureReason: 'The class was never streamed.', updatedAt: now })
        .where(eq(videos.id, this.row.videoId));
    await this.ctx.db.transaction(async (tx) => {
      const ended = await tx
        .update(liveClasses)
        .set({ status: 'ended', endedAt: now, updatedAt: now })
        .where(and(eq(liveClasses.id, this.row.id), ne(liveClasses.status, 'ended')))
        .returning({ id: liveClasses.id });
      // The recording plays as its live renditions; the job packages it as an upload (recording.ts).
      if (ended.length && streamed) await queueRecording(tx, this.row.id, this.row.videoId);
    });
    await rm(this.ctx.media.scratch.path(`live-${this.row.id}`), { recursive: true, force: true });
    this.ctx.logger.info(
      { classId: this.row.id, videoId: this.row.videoId, seconds: Math.round(this.rungs.top.seconds) },
      streamed ? 'live class: ended, the recording is the lecture' : 'live class: ended without a stream',
    );
  }

  /** What the metrics report of the class (live-metrics.ts). */
  figures(): IngestFigures {
    return {
      classId: this.row.id,
      bitrate: this.bitrate,
      newest: this.rungs.top.published.at(-1)?.programDate,
    };
  }

  /** This node stops (shutdown): the listener goes, the class stays as it is for the next start. */
  async stop(): Promise<void> {
    this.finished = true;
    this.unwatch();
    this.listener?.abort();
    await this.running;
    await this.publishing.catch(() => undefined);
  }
}

/**
 * The longest an idle ingest on the embedded database waits between looks for due classes. Only
 * this process writes that database, and a class scheduled or moved here wakes the ingest
 * (`schedule-changes.ts`), so an idle look only finds a class the clock brought within LIVE_LEAD_MS.
 * Twice a second, the look was a third of an idle server's CPU.
 */
const IDLE_TICK_MS = 4_000;

/**
 * The live ingest of this node (LIVE_INGEST=on): every `pollMs` it opens the listener of each class
 * due within LIVE_LEAD_MS, publishes what the listeners wrote, and ends classes whose encoder is
 * gone past the grace or whose time is up. With no class due on the embedded database, it looks
 * less often (IDLE_TICK_MS).
 */
export class LiveIngest {
  private readonly classes = new Map<string, ClassIngest>();
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private running = false;
  /** A wake came during a step: step again at once. */
  private tickAgain = false;
  /** Steps in a row with no class due or ingested here. */
  private idleTicks = 0;
  private unlisten: (() => void) | undefined;
  /** This node's hold on classes: another node holding a class's lease keeps it (lease.ts). */
  readonly leases: IngestLeases;

  constructor(
    private readonly ctx: AppContext,
    private readonly tools: MediaTools,
    private readonly pollMs = 500,
    leaseMs = LIVE_LEASE_MS,
    private readonly idleTickMs = IDLE_TICK_MS,
  ) {
    this.leases = new IngestLeases(ctx.db, leaseMs);
  }

  private unreport: (() => void) | undefined;

  start(): void {
    this.unreport ??= reportIngest(this.ctx.metrics.registry, () =>
      [...this.classes.values()].map((c) => c.figures()),
    );
    if (this.running) return;
    this.running = true;
    this.unlisten = onScheduleChange(() => this.wake());
    this.schedule(this.pollMs);
  }

  /** Steps now (a class was scheduled or moved in this process). */
  wake(): void {
    this.idleTicks = 0;
    if (!this.running) return;
    if (this.ticking) this.tickAgain = true;
    else this.schedule(0);
  }

  private schedule(delay: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.step(), delay);
  }

  private step(): void {
    if (this.ticking) return;
    const started = Date.now();
    this.tickAgain = false;
    this.ticking = this.tick()
      .catch((error: unknown) =>
        this.ctx.logger.error({ error: String(error) }, 'live ingest: a step failed'),
      )
      .finally(() => {
        this.ticking = undefined;
        // Every pollMs from the last step's start, as an interval would, unless woken meanwhile.
        if (this.running)
          this.schedule(this.tickAgain ? 0 : Math.max(0, this.nextTickMs() - (Date.now() - started)));
      });
  }

  /** PostgreSQL: every `pollMs` (another node may schedule a class). Embedded: longer while idle. */
  private nextTickMs(): number {
    if (this.ctx.dbKind !== 'pglite') return this.pollMs;
    return Math.max(this.pollMs, Math.min(this.pollMs * 2 ** this.idleTicks, this.idleTickMs));
  }

  /** Classes this node ingests right now. */
  get active(): number {
    return this.classes.size;
  }

  async tick(): Promise<void> {
    const now = this.ctx.clock.now();
    const due = await this.ctx.db
      .select({ row: liveClasses, store: videos.store, rtmpSince: liveIngests.rtmpSince })
      .from(liveClasses)
      .innerJoin(videos, eq(videos.id, liveClasses.videoId))
      .leftJoin(liveIngests, eq(liveIngests.classId, liveClasses.id))
      .where(dueAt(now));
    for (const { row, store, rtmpSince } of due) {
      const known = this.classes.get(row.id);
      // Taken or renewed each step; lost (this node stalled past its lease and another took the
      // class), the listener stops here and the class goes on there.
      if (!(await this.leases.hold(row.id))) {
        if (known) {
          this.ctx.logger.warn({ classId: row.id }, 'live ingest: another node took the class');
          await known.stop();
          this.classes.delete(row.id);
        }
        continue;
      }
      if (known) {
        // A new key or time from staff applies at the next listener.
        known.row = { ...row, status: known.row.status };
        known.rtmpOnAir = rtmpSince !== null;
        continue;
      }
      const ingest = new ClassIngest(this.ctx, this.tools, row, store);
      ingest.rtmpOnAir = rtmpSince !== null;
      this.classes.set(row.id, ingest);
      await ingest.resume();
      await ingest.listen();
    }
    this.idleTicks = due.length || this.classes.size ? 0 : this.idleTicks + 1;
    const dueIds = new Set(due.map((d) => d.row.id));
    for (const [id, ingest] of this.classes) {
      // Deleted or ended by someone else: let go.
      if (!dueIds.has(id) && !ingest.finished) await ingest.stop();
      else await ingest.step();
      if (ingest.finished) {
        this.classes.delete(id);
        await this.leases.release(id);
      }
    }
  }

  async stop(): Promise<void> {
    this.unreport?.();
    this.unreport = undefined;
    this.running = false;
    this.unlisten?.();
    this.unlisten = undefined;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.ticking;
    await Promise.all([...this.classes.values()].map((c) => c.stop()));
    // Another node may take the classes at once (a restart takes them back at its first step).
    await Promise.all([...this.classes.keys()].map((id) => this.leases.release(id)));
    this.classes.clear();
  }
}
