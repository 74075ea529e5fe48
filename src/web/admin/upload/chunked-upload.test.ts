import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { mediaMessages } from '../../../contract/media';
import { fakeServer } from '../../test-utils';
import { uploadInChunks, uploadNameFor, UploadError, type UploadProgress } from './chunked-upload';

const CHUNK = 10;
const FINAL = { url: '/stream/videos/v1/master.m3u8', deleteUrl: '/stream/videos/v1', duration: '00:04' };

/** A fake streamer holding `stored` bytes; `onChunk` may break a request before or after it lands. */
function streamer(
  options: {
    onChunk?: (n: number, start: number) => 'drop-request' | 'drop-response' | 'error-500' | void;
    statusFails?: number;
  } = {},
) {
  let stored = 0;
  let chunkCalls = 0;
  let statusFails = options.statusFails ?? 0;
  const starts: number[] = [];
  const server = fakeServer({
    'POST /stream/upload-chunk': (init) => {
      const form = init!.body as FormData;
      const start = Number(form.get('start'));
      const size = (form.get('file') as Blob).size;
      starts.push(start);
      const fault = options.onChunk?.(++chunkCalls, start);
      if (fault === 'drop-request') throw new TypeError('Failed to fetch');
      if (fault === 'error-500') return { status: 500, body: { message: 'Internal error' } };
      if (start !== 0 && start !== stored) {
        return { status: 409, body: { message: mediaMessages.wrongOffset, offset: stored } };
      }
      stored = start + size;
      if (fault === 'drop-response') throw new TypeError('Failed to fetch');
      return { body: { offset: stored } };
    },
    'GET /stream/upload-status': () => {
      if (statusFails-- > 0) throw new TypeError('Failed to fetch');
      return { body: { offset: stored } };
    },
    'POST /stream/upload': () => ({ body: FINAL }),
  });
  return { server, starts, stored: () => stored };
}

function upload(size: number, extra: Partial<Parameters<typeof uploadInChunks>[0]> = {}) {
  const waits: number[] = [];
  const progress: UploadProgress[] = [];
  const done = uploadInChunks({
    file: new Blob([new Uint8Array(size).map((_, i) => i % 251)]),
    fileName: 'Lecture 1.mp4',
    chunkSize: CHUNK,
    checksum: false,
    backoff: (attempt) => attempt * 100,
    sleep: async (ms) => void waits.push(ms),
    onProgress: (p) => progress.push(p),
    ...extra,
  });
  return { done, waits, progress };
}

describe('chunked upload', () => {
  it('sends the file in chunk-sized parts in order, fields before the file, then finalizes', async () => {
    const { server, starts } = streamer();
    const { done, progress } = upload(25);
    await expect(done).resolves.toEqual(FINAL);
    expect(starts).toEqual([0, 10, 20]);
    const first = server.calls[0]!.body as Record<string, unknown>;
    expect(Object.keys(first)).toEqual(['fileName', 'start', 'size', 'file']);
    expect(first.size).toBe('10');
    expect(first.fileName).toBe('Lecture 1.mp4');
    const finalize = server.fetch.mock.calls.at(-1)![1] as RequestInit;
    expect(finalize.headers).toEqual({ filename: 'Lecture 1.mp4' });
    expect(progress.map((p) => [p.phase, p.sent])).toEqual([
      ['uploading', 0],
      ['uploading', 10],
      ['uploading', 20],
      ['uploading', 25],
      ['finalizing', 25],
    ]);
  });

  it('after a lost request, waits and resumes from the offset the server reports', async () => {
    const { starts, stored } = streamer({ onChunk: (n) => (n === 2 ? 'drop-request' : undefined) });
    const { done, waits, progress } = upload(25);
    await expect(done).resolves.toEqual(FINAL);
    expect(starts).toEqual([0, 10, 10, 20]);
    expect(waits).toEqual([100]);
    expect(progress).toContainEqual({
      phase: 'retrying',
      sent: 10,
      total: 25,
      retry: { attempt: 1, maxAttempts: 8, delayMs: 100 },
    });
    expect(stored()).toBe(25);
  });

  it('after a lost response, does not send the stored chunk again', async () => {
    const { starts } = streamer({ onChunk: (n) => (n === 2 ? 'drop-response' : undefined) });
    const { done } = upload(25);
    await expect(done).resolves.toEqual(FINAL);
    // The server had 20 bytes although the client saw an error: it carries on at 20.
    expect(starts).toEqual([0, 10, 20]);
  });

  it('follows the offset of a 409 when the status could not be read either', async () => {
    const { starts } = streamer({ onChunk: (n) => (n === 2 ? 'drop-response' : undefined), statusFails: 1 });
    const { done, waits } = upload(25);
    await expect(done).resolves.toEqual(FINAL);
    // Retried at 10 (its own count), refused with the server's 20, carried on at 20.
    expect(starts).toEqual([0, 10, 10, 20]);
    expect(waits).toEqual([100]);
  });

  it('backs off longer on each consecutive failure and gives up after the limit with the server message', async () => {
    streamer({ onChunk: (n) => (n >= 2 ? 'error-500' : undefined) });
    const { done, waits } = upload(25, { maxRetries: 3 });
    await expect(done).rejects.toEqual(new UploadError('Internal error', 500));
    expect(waits).toEqual([100, 200, 300]);
  });

  it('resets the failure count after a confirmed chunk', async () => {
    const { starts } = streamer({ onChunk: (n) => (n === 2 || n === 4 ? 'drop-request' : undefined) });
    const { done, waits } = upload(25, { maxRetries: 1 });
    await expect(done).resolves.toEqual(FINAL);
    expect(starts).toEqual([0, 10, 10, 20, 20]);
    expect(waits).toEqual([100, 100]);
  });

  it('stops at once on a refusal that waiting cannot fix', async () => {
    fakeServer({
      'POST /stream/upload-chunk': () => ({
        status: 413,
        body: { message: 'The video is larger than the limit of 10 GiB.' },
      }),
    });
    const { done, waits } = upload(25);
    await expect(done).rejects.toMatchObject({
      status: 413,
      message: 'The video is larger than the limit of 10 GiB.',
    });
    expect(waits).toEqual([]);
  });

  it('a cancel stops between chunks with an AbortError and sends nothing more', async () => {
    const controller = new AbortController();
    const { starts } = streamer({ onChunk: (n) => void (n === 1 && controller.abort()) });
    const { done } = upload(25, { signal: controller.signal });
    await expect(done).rejects.toMatchObject({ name: 'AbortError' });
    expect(starts).toEqual([0]);
  });

  it('sends a SHA-256 checksum of each chunk when Web Crypto is there', async () => {
    const { server } = streamer();
    const { done } = upload(5, { checksum: true });
    await done;
    const bytes = new Uint8Array(5).map((_, i) => i % 251);
    expect((server.calls[0]!.body as Record<string, string>).checksum).toBe(
      `sha256=${createHash('sha256').update(bytes).digest('base64')}`,
    );
  });

  it('makes a file name the streamer accepts', () => {
    expect(uploadNameFor('Week 1..intro.mp4')).toBe('Week 1.intro.mp4');
    expect(uploadNameFor('  a/b.mkv ')).toBe('a_b.mkv');
    expect(new TextEncoder().encode(uploadNameFor(`${'é'.repeat(300)}.mp4`)).length).toBeLessThanOrEqual(200);
    expect(uploadNameFor(`${'é'.repeat(300)}.mp4`)).toMatch(/\.mp4$/);
  });
});
