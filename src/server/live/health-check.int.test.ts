import { createSocket } from 'node:dgram';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { liveClasses } from '../db/schema';
import { runCheck } from '../health/readiness';
import { createReadiness } from '../wiring/health-registry';
import { liveIngestLine } from '../wiring/doctor-live';
import { liveSuiteServer, scheduledClass } from '../../../test/support/live-encoder';
import { freePort } from '../../../test/support/processes';
import { suiteAdmin } from '../../../test/support/test-server';
import { liveIngestCheck } from './health-check';
import { IngestLeases } from './lease';

// A port the system just gave out free: a random one could be another test's listener (a CI run
// found its "nobody listens" check answered).
const RTMP_PORT = await freePort();

describe('the live ingest in /readyz and the doctor', () => {
  const server = liveSuiteServer({
    HOST: '127.0.0.1',
    LIVE_RTMP_URL: 'rtmp://live.school.test:1935/live',
    LIVE_RTMP_PULL: `rtmp://127.0.0.1:${RTMP_PORT}/live`,
  });
  const admin = suiteAdmin(server);

  it("reports a class's SRT port taken by another program and nginx's rtmp listener away, advisory", async () => {
    const check = liveIngestCheck(server.ctx);
    expect(check.advisory).toBe(true);
    expect(createReadiness(server.ctx).names).toContain('live ingest');
    const { live } = await scheduledClass(server, admin, 'Checked class');
    const [{ srtPort }] = (await server.ctx.db
      .select({ srtPort: liveClasses.srtPort })
      .from(liveClasses)
      .where(eq(liveClasses.id, live._id))) as [{ srtPort: number }];

    // Nothing on LIVE_RTMP_PULL's port: RTMP encoders could not stream.
    const away = await runCheck(check);
    expect(away).toMatchObject({ ok: false });
    expect(away.error).toContain(`nginx's rtmp listener at 127.0.0.1:${RTMP_PORT}`);
    const nginx = createServer((socket) => socket.destroy()).listen(RTMP_PORT, '127.0.0.1');
    await new Promise((r) => nginx.once('listening', r));
    try {
      expect(await runCheck(check)).toMatchObject({ ok: true });

      // Another program on the class's SRT port, while no node holds the class.
      const squatter = createSocket('udp4');
      await new Promise<void>((r) => squatter.bind(srtPort, '127.0.0.1', r));
      const taken = await runCheck(check);
      expect(taken.error).toContain(`SRT port ${srtPort} (class ${live._id}) is taken by another program`);
      // A node holding the class has its own listener there: no complaint.
      const leases = new IngestLeases(server.ctx.db);
      await leases.hold(live._id);
      expect(await runCheck(check)).toMatchObject({ ok: true });
      await leases.release(live._id);
      await new Promise<void>((r) => squatter.close(() => r()));
      expect(await runCheck(check)).toMatchObject({ ok: true });

      // The doctor's line says when RTMP is not set up at all.
      const srtOnly = { ...server.ctx.config, live: { ...server.ctx.config.live, rtmpConfigured: false } };
      const line = await liveIngestLine({ ...server.ctx, config: srtOnly });
      expect(line).toMatchObject({ verdict: 'ok', name: 'live ingest' });
      expect(line.detail).toContain('RTMP not configured');
    } finally {
      nginx.close();
    }
  });
});
