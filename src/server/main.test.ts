import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TestClient } from './testing/http-client';
import { startServerProcess } from './testing/processes';

describe('server process', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('prints a generated admin password on first start only, and stops cleanly on SIGTERM', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'lectern-main-'));
    dirs.push(dataDir);
    const env = { DATA_DIR: dataDir, SEED_DEMO: 'false', OPEN_HOURS: 'always' };

    const first = await startServerProcess(env);
    const password = first.output().match(/Admin account created: admin \/ (\S+)/)?.[1];
    expect(password).toBeTruthy();
    const login = await new TestClient(first.url).post('/api/admin/login', { username: 'admin', password });
    expect(login.status).toBe(200);
    expect(await first.stop()).toBe(0);
    expect(await readdir(dataDir)).not.toContain('db.lock');

    const second = await startServerProcess(env);
    expect(second.output()).not.toContain('Admin account created');
    const again = await new TestClient(second.url).post('/api/admin/login', { username: 'admin', password });
    expect(again.status).toBe(200);
    expect(await second.stop()).toBe(0);
  });

  it('refuses to start with a bad variable, naming it in one line', async () => {
    await expect(startServerProcess({ OPEN_TZ: 'Nowhere/City' })).rejects.toThrow(
      /Invalid OPEN_TZ="Nowhere\/City": unknown IANA time zone/,
    );
  });
});
