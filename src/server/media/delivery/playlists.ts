import { mediaKeys, readText, renditionName, type MediaStore } from '../store';
import { INFO_FILE, PLAYLIST, type RenditionInfo } from '../packaging/hls';

const MAX_CACHED = 2_000;

/** A child playlist split around the places a token goes, so answering one is a join. */
interface Template {
  /** Text pieces; between piece i and i+1 goes the token (for segment URIs) or the key URI. */
  pieces: string[];
  slots: ('segment' | 'key')[];
}

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

  /** A rendition's playlist with `token` on every segment URI and the key URI pointing at the key route. */
  async child(
    store: MediaStore,
    videoId: string,
    rendition: string,
    token: string,
  ): Promise<string | undefined> {
    const template = await this.template(store, videoId, rendition);
    if (!template) return undefined;
    const keyUri = `/stream/videos/${videoId}/key?t=${token}`;
    let out = template.pieces[0]!;
    for (let i = 0; i < template.slots.length; i++) {
      out += (template.slots[i] === 'key' ? keyUri : `?t=${token}`) + template.pieces[i + 1]!;
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
  ): Promise<Template | undefined> {
    const key = `${videoId}/${rendition}`;
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
  const pieces: string[] = [];
  const slots: Template['slots'] = [];
  let current = '';
  for (const line of text.split('\n')) {
    if (line.startsWith('#EXT-X-KEY:')) {
      const m = /^(.*URI=")[^"]*(".*)$/.exec(line);
      if (m) {
        pieces.push(current + m[1]);
        slots.push('key');
        current = `${m[2]}\n`;
        continue;
      }
    } else if (line && !line.startsWith('#')) {
      pieces.push(current + line);
      slots.push('segment');
      current = '\n';
      continue;
    }
    if (line) current += `${line}\n`;
  }
  pieces.push(current);
  return { pieces, slots };
}

function remember<T>(map: Map<string, T>, key: string, value: T): void {
  if (map.size >= MAX_CACHED) map.delete(map.keys().next().value!);
  map.set(key, value);
}
