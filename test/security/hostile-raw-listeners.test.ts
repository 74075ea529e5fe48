import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../support/processes';
import { rawRequest, sendRaw } from '../support/raw-http';

/**
 * The requests that ended the process (issue 27): malformed session cookies on a segment link, which
 * the segment fast path decoded in Node's raw `request` listener, outside Fastify's error handling.
 * Sent to a real server process over real sockets, on GET and HEAD.
 */
const SEGMENT = '/stream/videos/00000000-0000-0000-0000-000000000000/v720/seg_00000.ts?t=x';

const COOKIES: Record<string, string[]> = {
  'a lone %': ['token=%'],
  '%zz': ['token=%zz'],
  'a cut UTF-8 escape': ['token=%E2%82'],
  'an overlong UTF-8 escape': ['token=%C0%AF'],
  'a NUL escape': ['token=%00'],
  'a 12 KB cookie ending in %': [`token=${'a'.repeat(12_000)}%`],
  'two Cookie headers': ['token=%', 'token=%zz'],
};

let server: ServerProcess;
let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'lectern-hostile-'));
  server = await startServerProcess({
    DATA_DIR: dataDir,
    DATABASE_URL: 'memory://',
    OPEN_HOURS: 'always',
    SEED_DEMO: 'false',
  });
}, 90_000);
afterAll(async () => {
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('a malformed cookie on a segment link', () => {
  for (const method of ['GET', 'HEAD']) {
    for (const [name, cookies] of Object.entries(COOKIES)) {
      it(`${method} with ${name}: a 4xx answer, and the process lives on`, async () => {
        const reply = await sendRaw(
          server.url,
          rawRequest(method, SEGMENT, [
            ['Host', new URL(server.url).host],
            ...cookies.map((c): [string, string] => ['Cookie', c]),
            ['Connection', 'close'],
          ]),
        );
        expect(reply.ended).toBe('answered');
        expect(reply.status).toBeGreaterThanOrEqual(400);
        expect(reply.status).toBeLessThan(500);
        if (method === 'GET') expect(JSON.parse(reply.body)).toEqual({ message: expect.any(String) });
        expect(server.child.exitCode).toBeNull();
        const time = await fetch(`${server.url}/api/time`);
        expect(time.status).toBe(200);
      });
    }
  }
});
