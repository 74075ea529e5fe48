import { open, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * Where media lives under DATA_DIR/media:
 * - `uploads/<uuid>`: chunked uploads in progress (storage names are ours, never the client's);
 * - `sources/<videoId>`: a finalized upload, kept until the ladder is done;
 * - `staging/<videoId>.<job>`: packaging output before it is complete (never served);
 * - `videos/<videoId>/`: the served folder: `poster.jpg` and one `v<height>/` per rendition.
 * AES keys live in the database (`videos.hls_key`), never in these folders.
 */
export interface MediaPaths {
  root: string;
  uploads: string;
  sources: string;
  staging: string;
  videos: string;
  upload(storageName: string): string;
  source(videoId: string): string;
  video(videoId: string): string;
  rendition(videoId: string, height: number): string;
}

export function mediaPaths(dataDir: string): MediaPaths {
  const root = path.join(dataDir, 'media');
  const p: MediaPaths = {
    root,
    uploads: path.join(root, 'uploads'),
    sources: path.join(root, 'sources'),
    staging: path.join(root, 'staging'),
    videos: path.join(root, 'videos'),
    upload: (storageName) => path.join(p.uploads, storageName),
    source: (videoId) => path.join(p.sources, videoId),
    video: (videoId) => path.join(p.videos, videoId),
    rendition: (videoId, height) => path.join(p.videos, videoId, renditionName(height)),
  };
  return p;
}

/** `v720`: a rendition's folder and URL segment. */
export const renditionName = (height: number) => `v${height}`;

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Flushes a file or folder to disk, so a rename or a database write after it never points at lost bytes. */
export async function fsyncPath(target: string): Promise<void> {
  const handle = await open(target, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Flushes every file below `dir` and the folders themselves. */
export async function fsyncTree(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await fsyncTree(full);
    else await fsyncPath(full);
  }
  await fsyncPath(dir);
}

/** Removes every file of a video: served folder, source and any staging output. Returns whether anything existed. */
export async function removeVideoFiles(paths: MediaPaths, videoId: string): Promise<boolean> {
  const staged = (await readdir(paths.staging).catch(() => [] as string[]))
    .filter((name) => name.startsWith(`${videoId}.`))
    .map((name) => path.join(paths.staging, name));
  const targets = [paths.video(videoId), paths.source(videoId), ...staged];
  let existed = false;
  for (const target of targets) {
    if (await stat(target).catch(() => undefined)) existed = true;
    await rm(target, { recursive: true, force: true });
  }
  return existed;
}
