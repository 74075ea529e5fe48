import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PNG_DATA_URL } from '../support/course-fixtures';
import { nullCharacterAt } from '../../src/server/errors';
import { mediaMessages } from '../../src/contract/media';
import { listFiles, sendChunk } from '../support/media-kit';
import { testEngines } from '../support/databases';
import type { TestClient } from '../support/http-client';
import { TestServer } from '../support/test-server';
import { describeChanges, takeSnapshot } from './state-snapshot';

/** Inputs the fuzzer found answered with 500; each must be a 400 that changes nothing. */
describe.each(testEngines())('inputs that once crashed a route (%s)', (engine) => {
  let server: TestServer;
  let admin: TestClient;
  beforeAll(async () => {
    server = await TestServer.start({ engine, env: { OPEN_HOURS: 'always' } });
    admin = (await server.adminClient()).client;
  });
  afterAll(() => server?.close());

  const unchanged = async (send: () => Promise<{ status: number; body: unknown }>) => {
    const before = await takeSnapshot(server.ctx.db, server.dataDir);
    const res = await send();
    expect(describeChanges(before, await takeSnapshot(server.ctx.db, server.dataDir))).toEqual([]);
    return res;
  };

  it('the state snapshot these tests trust sees a row changed since a quiet snapshot (its shortcut hides nothing)', async () => {
    const first = await takeSnapshot(server.ctx.db, server.dataDir);
    const again = await takeSnapshot(server.ctx.db, server.dataDir);
    expect(describeChanges(first, again)).toEqual([]);
    await server.ctx.db.execute(sql`update users set name = name || ' (renamed)' where role = 'admin'`);
    const changes = describeChanges(again, await takeSnapshot(server.ctx.db, server.dataDir));
    expect(changes).toContainEqual(expect.stringMatching(/^public\.users: \+1 -1 .*\(renamed\)/));
    await server.ctx.db.execute(
      sql`update users set name = replace(name, ' (renamed)', '') where role = 'admin'`,
    );
  });

  it('answers a null character in a JSON field with 400 naming the field (PostgreSQL cannot store one)', async () => {
    const signIn = await unchanged(() =>
      server.client().post('/api/signin', { username: 'a\u0000', password: 'x' }),
    );
    expect(signIn).toMatchObject({ status: 400, body: { message: 'Invalid or missing field: username' } });

    // The thumbnail used to be written before the insert failed: nothing may be left behind.
    const course = await unchanged(() =>
      admin.post('/api/admin/course/create', {
        batch: 1,
        coursecode: 'NUL1',
        name: 'Null\u0000Course',
        description: 'd',
        startdate: '2026-01-01',
        enddate: '2026-02-01',
        thumbnail: PNG_DATA_URL,
      }),
    );
    expect(course).toMatchObject({ status: 400, body: { message: 'Invalid or missing field: name' } });
    expect(await listFiles(server.dataDir)).not.toContainEqual(expect.stringMatching(/^thumbnails/));

    const imported = await unchanged(() =>
      admin.post('/api/admin/students/import', { csv: 'rollno,name,email\nN-1,Nul\u0000,n@x.test\n' }),
    );
    expect(imported.status).toBe(400);
    const nested = await unchanged(() =>
      admin.post('/api/admin/video/grant', { videoId: 'v', studentIds: ['a', 'b\u0000'] }),
    );
    expect(nested.body).toEqual({ message: 'Invalid or missing field: studentIds.1' });
    const inQuery = await unchanged(() => admin.get('/api/admin/students?q=%00'));
    expect(inQuery.body).toEqual({ message: 'Invalid or missing field: q' });
  });

  it('answers a truncated or boundary-less multipart body with 400 and keeps no part of it', async () => {
    const raw = (body: string, type: string) =>
      admin.request('POST', '/stream/upload-chunk', { body, headers: { 'content-type': type } });
    const truncatedFile = await unchanged(() =>
      raw(
        '--x\r\nContent-Disposition: form-data; name="fileName"\r\n\r\nnul.mp4\r\n' +
          '--x\r\nContent-Disposition: form-data; name="start"\r\n\r\n0\r\n' +
          '--x\r\nContent-Disposition: form-data; name="file"; filename="b"\r\n\r\nabc',
        'multipart/form-data; boundary=x',
      ),
    );
    expect(truncatedFile).toMatchObject({
      status: 400,
      body: { message: 'The multipart body is malformed.' },
    });
    expect(
      (
        await unchanged(() =>
          raw('--x\r\nContent-Disposition: form-data; name="file"', 'multipart/form-data; boundary=x'),
        )
      ).status,
    ).toBe(400);
    expect((await admin.get('/stream/upload-status?fileName=nul.mp4')).body).toEqual({ offset: 0 });
  });

  it('keeps no upload row or empty file after a refused first chunk (wrong checksum)', async () => {
    const bytes = Buffer.from('not the bytes the checksum is of');
    const res = await unchanged(() =>
      sendChunk(admin, 'first.mp4', 0, bytes, { checksum: `sha256=${'A'.repeat(43)}=` }),
    );
    expect(res).toMatchObject({ status: 400, body: { message: mediaMessages.checksumMismatch } });
    // A first chunk that is accepted still starts the upload.
    expect((await sendChunk(admin, 'first.mp4', 0, bytes)).body).toEqual({ offset: bytes.length });
  });
});

describe('nullCharacterAt', () => {
  it('finds a null character in values and keys at any depth, without recursion', () => {
    expect(nullCharacterAt({ a: [{ b: 'ok' }, { c: 'x\u0000' }] })).toBe('a.1.c');
    expect(nullCharacterAt({ ['k\u0000']: 1 })).toBe('k\u0000');
    expect(nullCharacterAt('\u0000')).toBe('body');
    expect(nullCharacterAt({ a: 'fine', n: 1, z: null })).toBeUndefined();
    const deep = JSON.parse('{"a":'.repeat(100_000) + '"\\u0000"' + '}'.repeat(100_000));
    expect(nullCharacterAt(deep)).toMatch(/^a(\.a)+$/);
  });
});
