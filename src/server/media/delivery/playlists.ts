import { mediaKeys, readText, renditionName, type MediaStore } from '../../storage';
import { frameRateAttribute } from '../packaging/codecs';
import { INFO_FILE, PLAYLIST, type RenditionInfo } from '../packaging/hls';
import { periodOfKeyUri } from '../packaging/segment-keys';
import type { DescribeStored } from './stream-descriptions';
import { chooseVariants, VARIANT_B_TAG } from '../../marks/mark';
import { videoKeyUrl } from '../../videos/stream-urls';

const MAX_CACHED = 2_000;

/** A child playlist split around its URIs, so answering one is a join. */
interface Template {
  /** Text pieces; between piece i and i+1 goes slot i's URI. */
  pieces: string[];
  /** A segment's file name, or the period of a key. */
  slots: ({ segment: string } | { period: number })[];
  /** The segment file names, in order. */
  files: string[];
  /** A marked rendition: the B variant of each segment (`files` are the A variants). */
  alternates: string[];
}

/** Packaged playlists and rendition descriptions never change once moved into place: keep them in memory. */
export class PlaylistStore {
  private readonly templates = new Map<string, Template>();
  private readonly infos = new Map<string, RenditionInfo>();
  /** Renditions being described right now (concurrent first reads share one probe). */
  private readonly describing = new Map<string, Promise<RenditionInfo>>();

  /** `describe`: CODECS and FRAME-RATE of renditions packaged before info.json recorded them. */
  constructor(private readonly describe?: DescribeStored) {}

  /** The master playlist of the listed renditions, highest first, each child URI carrying `token`. */
  /** The master playlist; `tokenFor(path)` signs each child playlist's link (`v720/index.m3u8`). */
  async master(
    store: MediaStore,
    videoId: string,
    heights: number[],
    tokenFor: (path: string) => string,
  ): Promise<string> {
    const lines = ['#EXTM3U', '#EXT-X-VERSION:3'];
    for (const height of [...heights].sort((a, b) => b - a)) {
      const info = await this.info(store, videoId, height);
      if (!info) continue;
      const attributes = [
        `BANDWIDTH=${info.bandwidth}`,
        `AVERAGE-BANDWIDTH=${info.averageBandwidth}`,
        `RESOLUTION=${info.width}x${info.height}`,
        ...(info.codecs ? [`CODECS="${info.codecs}"`] : []),
        ...(info.frameRate ? [`FRAME-RATE=${frameRateAttribute(info.frameRate)}`] : []),
      ];
      lines.push(
        `#EXT-X-STREAM-INF:${attributes.join(',')}`,
        `${renditionName(height)}/${PLAYLIST}?t=${tokenFor(`${renditionName(height)}/${PLAYLIST}`)}`,
      );
    }
    return `${lines.join('\n')}\n`;
  }

  /**
   * A rendition's playlist (`version`: cached under it) with `links(files)` as its segment URIs and
   * the key URIs on the key route. A marked rendition lists, per segment, the variant `sequence`
   * picks (marks/code.ts); it is never served without one.
   */
  async child(
    store: MediaStore,
    videoId: string,
    rendition: string,
    version: string,
    links: (files: string[]) => Promise<string[]>,
    sequence?: (segments: number) => Uint8Array,
  ): Promise<string | undefined> {
    const template = await this.template(store, videoId, rendition, version);
    if (!template) return undefined;
    let files = template.files;
    if (template.alternates.length) {
      if (!sequence) throw new Error('a marked rendition needs the session sequence');
      files = chooseVariants(files, template.alternates, sequence(files.length));
    }
    const uris = await links(files);
    let out = template.pieces[0]!;
    let segment = 0;
    for (let i = 0; i < template.slots.length; i++) {
      const slot = template.slots[i]!;
      out +=
        ('period' in slot ? videoKeyUrl(videoId, slot.period) : uris[segment++]!) + template.pieces[i + 1]!;
    }
    return out;
  }

  forgetVideo(videoId: string): void {
    for (const map of [this.templates, this.infos]) {
      for (const key of map.keys()) if (key.startsWith(`${videoId}/`)) map.delete(key);
    }
  }

  private async info(store: MediaStore, videoId: string, height: number): Promise<RenditionInfo | undefined> {
    const key = `${videoId}/${height}`;
    let info = this.infos.get(key);
    if (!info) {
      const text = await readText(store, mediaKeys.videoFile(videoId, renditionName(height), INFO_FILE));
      if (!text) return undefined;
      info = JSON.parse(text) as RenditionInfo;
      if (info.codecs === undefined && info.frameRate === undefined && this.describe)
        info = await this.described(store, videoId, height, info);
      remember(this.infos, key, info);
    }
    return info;
  }

  /**
   * `info` completed by probing its first segment, and saved so that it is probed once. Kept in
   * memory even when the probe found nothing (no retry on every read); a failure is not saved.
   */
  private described(
    store: MediaStore,
    videoId: string,
    height: number,
    info: RenditionInfo,
  ): Promise<RenditionInfo> {
    const key = `${videoId}/${height}`;
    let running = this.describing.get(key);
    if (!running) {
      running = (async () => {
        const found = await this.describe!(store, videoId, height);
        if (found.codecs === undefined && found.frameRate === undefined) return info;
        const complete = { ...info, ...found };
        const rendition = renditionName(height);
        // Not when the video was deleted meanwhile: that would leave a stray file behind.
        // A failed save only means the next process probes again.
        if (await store.head(mediaKeys.videoFile(videoId, rendition, PLAYLIST)).catch(() => undefined))
          await store
            .put(mediaKeys.videoFile(videoId, rendition, INFO_FILE), Buffer.from(JSON.stringify(complete)), {
              contentType: 'application/json',
            })
            .catch(() => {});
        return complete;
      })().finally(() => this.describing.delete(key));
      this.describing.set(key, running);
    }
    return running;
  }

  private async template(
    store: MediaStore,
    videoId: string,
    rendition: string,
    version: string,
  ): Promise<Template | undefined> {
    const key = `${videoId}/${version}`;
    let template = this.templates.get(key);
    if (!template) {
      const text = await readText(store, mediaKeys.videoFile(videoId, rendition, PLAYLIST));
      if (!text) return undefined;
      template = parseTemplate(text);
      remember(this.templates, key, template);
    }
    return template;
  }
}

function parseTemplate(text: string): Template {
  const template: Template = { pieces: [], slots: [], files: [], alternates: [] };
  let current = '';
  for (const line of text.split('\n')) {
    if (line.startsWith(VARIANT_B_TAG)) {
      template.alternates.push(line.slice(VARIANT_B_TAG.length));
      continue;
    }
    if (line.startsWith('#EXT-X-KEY:')) {
      const m = /^(.*URI=")([^"]*)(".*)$/.exec(line);
      if (m) {
        template.pieces.push(current + m[1]);
        template.slots.push({ period: periodOfKeyUri(m[2]!) });
        current = `${m[3]}\n`;
        continue;
      }
    } else if (line && !line.startsWith('#')) {
      template.pieces.push(current);
      template.slots.push({ segment: line });
      template.files.push(line);
      current = '\n';
      continue;
    }
    if (line) current += `${line}\n`;
  }
  template.pieces.push(current);
  return template;
}

function remember<T>(map: Map<string, T>, key: string, value: T): void {
  if (map.size >= MAX_CACHED) map.delete(map.keys().next().value!);
  map.set(key, value);
}
