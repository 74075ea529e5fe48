import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { videos } from '../../src/server/db/schema';
import { openRuntime } from '../../src/server/runtime';
import { FaultProxy } from '../support/fault-proxy';
import { runCli, startCli } from '../support/processes';

const OBJECTS = 120;

/** How many objects a backup folder holds so far. */
async function objectCount(dir: string): Promise<number> {
  const entries = await readdir(path.join(dir, 'objects'), { recursive: true, withFileTypes: true }).catch(
    () => [],
  );
  return entries.filter((e) => e.isFile() && !e.name.includes('.tmp-')).length;
}

/** An embedded install (server stopped, as the CLI needs) with one video of OBJECTS segments. */
describe('a backup killed midway, and a target that is down', () => {
  let dataDir: string;
  let backupDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'lectern-kill-'));
    backupDir = await mkdtemp(path.join(tmpdir(), 'lectern-kill-backups-'));
    env = { DATA_DIR: dataDir, LOG_LEVEL: 'silent', SEED_DEMO: 'false' };
    const runtime = await openRuntime(loadConfig(env));
    try {
      const [video] = await runtime.ctx.db
        .insert(videos)
        .values({ title: 'Long lecture', sourceName: 'long.mp4', status: 'ready', renditions: [180] })
        .returning({ id: videos.id });
      for (let i = 0; i < OBJECTS; i++)
        await runtime.ctx.media.local.put(
          `videos/${video!.id}/v180/seg_${String(i).padStart(5, '0')}.ts`,
          randomBytes(256 * 1024),
        );
    } finally {
      await runtime.close();
    }
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
    await rm(backupDir, { recursive: true, force: true });
  });

  it('SIGKILL mid-backup: nothing listed, the next backup succeeds and copies only what is missing', async () => {
    const cli = startCli(['backup', '--to', backupDir], env);
    const deadline = Date.now() + 60_000;
    while ((await objectCount(backupDir)) < 10) {
      if (Date.now() > deadline) throw new Error(`no progress: ${cli.output.text}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    cli.child.kill('SIGKILL');
    await cli.exited;
    const copiedBefore = await objectCount(backupDir);
    expect(copiedBefore).toBeLessThan(OBJECTS + 1);

    const listed = await runCli(['backup:list', '--from', backupDir], env);
    expect(listed.stdout).toContain('No complete backup');

    const again = await runCli(['backup', '--to', backupDir], env);
    expect(again.code).toBe(0);
    const [, total, copied] = /: (\d+) objects \((\d+) copied/.exec(again.stdout) ?? [];
    expect(Number(total)).toBe(OBJECTS);
    // The dump is an object too: what the killed run stored (segments, maybe the dump) is not copied again.
    expect(Number(copied)).toBeLessThanOrEqual(OBJECTS - (copiedBefore - 1));
    expect(Number(copied)).toBeGreaterThan(0);
    const after = await runCli(['backup:list', '--from', backupDir], env);
    expect(after.stdout.trim().split('\n')).toHaveLength(1);
    const id = after.stdout.split(' ')[0]!;
    const verified = await runCli(['backup:verify', id, '--from', backupDir], env);
    expect(verified.stdout).toContain(`Backup ${id} is sound`);
  }, 120_000);

  it('a bucket target that is down: one clear line, exit code 2, nothing half-listed', async () => {
    const proxy = await FaultProxy.start(process.env.S3_ENDPOINT ?? 'http://127.0.0.1:9');
    try {
      proxy.set('refuse');
      const result = await runCli(['backup'], {
        ...env,
        BACKUP_TARGET: 's3://lectern-backups-down/school',
        BACKUP_S3_ENDPOINT: proxy.endpoint,
        BACKUP_S3_ACCESS_KEY_ID: 'lectern',
        BACKUP_S3_SECRET_ACCESS_KEY: 'lectern-secret',
        BACKUP_S3_FORCE_PATH_STYLE: 'true',
      });
      expect(result.code).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(
        /^The backup target s3:\/\/lectern-backups-down\/school cannot be reached/,
      );
      expect(result.stderr).not.toContain('lectern-secret');
    } finally {
      await proxy.close();
    }
  }, 60_000);
});
