import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { loadConfig } from '../config';
import { liveClasses, liveIngests } from '../db/schema';
import { openRuntime, type Runtime } from '../runtime';
import { createMediaTools } from '../storage/ffmpeg';
import { liveSuiteServer, scheduledClass, until } from '../../../test/support/live-encoder';
import { suiteAdmin } from '../../../test/support/test-server';
import { LiveIngest } from './ingest';
import { IngestLeases } from './lease';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Two nodes on one PostgreSQL database: the suite's server (node A) and a second runtime (node B). */
describe.skipIf(!process.env.TEST_DATABASE_URL)('the ingest lease across nodes', () => {
  const server = liveSuiteServer({}, 'postgres');
  const admin = suiteAdmin(server);
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const clean of cleanups.reverse()) await clean();
  });

  async function nodeB(): Promise<Runtime> {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'lectern-node-b-'));
    // The same install: node A's key file (DATA_DIR/signing.key) copied, as every node shares it.
    await copyFile(path.join(server.dataDir, 'signing.key'), path.join(dataDir, 'signing.key'));
    const runtime = await openRuntime(
      loadConfig({
        DATA_DIR: dataDir,
        DATABASE_URL: server.ctx.config.databaseUrl,
        LOG_LEVEL: 'silent',
        LIVE_SRT_PORTS: server.ctx.config.live.srtPorts.join('-'),
      }),
      { clock: server.clock },
    );
    cleanups.push(
      () => runtime.close(),
      () => rm(dataDir, { recursive: true, force: true }),
    );
    return runtime;
  }

  it('lets one node hold a class; another takes it once the holder stops renewing', async () => {
    const { live } = await scheduledClass(server, admin, 'Leased class');
    const b = await nodeB();
    const a = new IngestLeases(server.ctx.db, 1000);
    const other = new IngestLeases(b.ctx.db, 1000);
    expect(await a.hold(live._id)).toBe(true);
    expect(await other.hold(live._id)).toBe(false);
    expect(await a.hold(live._id)).toBe(true); // renewed
    expect(await other.hold(live._id)).toBe(false);
    await sleep(1300); // A stops renewing: its lease runs out
    expect(await other.hold(live._id)).toBe(true);
    expect(await a.hold(live._id)).toBe(false);
    await other.release(live._id);
    expect(await a.hold(live._id)).toBe(true);
    await a.release(live._id);
    // Out of the next test's way (its lease row goes with it).
    await server.ctx.db.delete(liveClasses).where(eq(liveClasses.id, live._id));
  });

  it("runs a class's listener on one node only, and on the other once the holder stalls past its lease", async () => {
    const { live } = await scheduledClass(server, admin, 'Two nodes');
    const b = await nodeB();
    const ingestA = new LiveIngest(server.ctx, createMediaTools(server.ctx.config), 200, 1500);
    const ingestB = new LiveIngest(b.ctx, createMediaTools(b.ctx.config), 200, 1500);
    cleanups.push(
      () => ingestA.stop(),
      () => ingestB.stop(),
    );
    await ingestA.tick();
    await ingestB.tick();
    expect([ingestA.active, ingestB.active]).toEqual([1, 0]);
    const holder = async () =>
      (await server.ctx.db.select().from(liveIngests).where(eq(liveIngests.classId, live._id)))[0]?.holder;
    expect(await holder()).toBe(ingestA.leases.holder);

    // A stalls (no step renews its lease): B takes the class once the lease has passed.
    await until('node B to take the class', async () => (await ingestB.tick(), ingestB.active === 1), 10_000);
    expect(await holder()).toBe(ingestB.leases.holder);
    // A wakes up: its lease is gone, so its listener stops and the class stays with B.
    await ingestA.tick();
    expect([ingestA.active, ingestB.active]).toEqual([0, 1]);

    // B stops (a shutdown): it lets go at once and A takes the class at its next step.
    await ingestB.stop();
    await ingestA.tick();
    expect(ingestA.active).toBe(1);
  }, 60_000);
});
