import { mediaKeys, readText, renditionName, type MediaStore } from '../store';
import { INFO_FILE, PLAYLIST, type RenditionInfo } from '../packaging/hls';
import { periodOfKeyUri } from '../packaging/segment-keys';

const MAX_CACHED = 2_000;

/** A child playlist split around its URIs, so answering one is a join. */
interface Template {
  /** Text pieces; between piece i and i+1 goes slot i's URI. */
  pieces: string[];
  /** A segment's file name, or the period of a key. */
  slots: ({ segment: string } | { period: number })[];
  /** The segment file names, in order. */
  files: string[];
}

/** Where the player asks for key `period` of a video (the key route: session and access checked). */
export const keyRoute = (videoId: string, period: number) => `/stream/videos/${videoId}/keys/${period}`;

/** Packaged playlists and rendition descriptions never change once moved into place: keep them in memory. */
export class PlaylistStore {
  private readonly templates = new Map<string, Template>();
  private readonly infos = new Map<string, RenditionInfo>();

  /** The master playlist of the listed renditions, highest first, each child URI carrying `token`. */
  async master(store: MediaStore, videoId: string, heights: number[], token: string): Promise<string> {
    const lines = ['#EXTM3U', '#EXT-X-VERSION:3'];
    for (const height of [...heights].sort((a, b) => b - a)) {
      const info = await this.info(store, videoId, height);
      if (!info) continue;
      lines.push(
        `#EXT-X-STREAM-INF:BANDWIDTH=${info.bandwidth},AVERAGE-BANDWIDTH=${info.averageBandwidth},RESOLUTION=${info.width}x${info.height}`,
        `${renditionName(height)}/${PLAYLIST}?t=${token}`,
      );
    }
    return `${lines.join('\n')}\n`;
  }

  /** A rendition's playlist (`version`: cached under it) with `links(files)` as its segment URIs and the key URIs on the key route. */
  async child(
    store: MediaStore,
    videoId: string,
    rendition: string,
    version: string,
    links: (files: string[]) => Promise<string[]>,
  ): Promise<string | undefined> {
    const template = await this.template(store, videoId, rendition, version);
    if (!template) return undefined;
    const uris = await links(template.files);
    let out = template.pieces[0]!;
    let segment = 0;
    for (let i = 0; i < template.slots.length; i++) {
      const slot = template.slots[i]!;
      out += ('period' in slot ? keyRoute(videoId, slot.period) : uris[segment++]!) + template.pieces[i + 1]!;
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
      remember(this.infos, key, info);
    }
    return info;
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
  const template: Template = { pieces: [], slots: [], files: [] };
  let current = '';
  for (const line of text.split('\n')) {
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
