import { createSocket } from 'node:dgram';
import { connect } from 'node:net';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../context';
import { liveClasses, liveIngests } from '../db/schema';
import type { HealthCheck } from '../health/readiness';
import { dueAt } from './ingest';

/** Resolves when a UDP socket can bind `host:port` (no program holds it), else rejects. */
function udpFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createSocket(host.includes(':') ? 'udp6' : 'udp4');
    socket.once('error', () => resolve(false));
    socket.bind(port, host, () => socket.close(() => resolve(true)));
  });
}

function tcpAnswers(host: string, port: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, signal }, () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/**
 * The live ingest (where it runs, LIVE_INGEST=on): the SRT port of each class due that no node
 * holds must be free for its listener (another program on it would keep the encoder out), and,
 * when LIVE_RTMP_URL says encoders use RTMP, nginx's rtmp listener (LIVE_RTMP_PULL's host and port)
 * must answer. Advisory: SRT classes and playback go on without nginx.
 */
export function liveIngestCheck(ctx: Pick<AppContext, 'config' | 'db' | 'clock'>): HealthCheck {
  const { config } = ctx;
  return {
    name: 'live ingest',
    cacheMs: 10_000,
    advisory: true,
    async probe(signal) {
      const now = ctx.clock.now();
      const due = await ctx.db
        .select({ id: liveClasses.id, port: liveClasses.srtPort, leaseUntil: liveIngests.leaseUntil })
        .from(liveClasses)
        .leftJoin(liveIngests, eq(liveIngests.classId, liveClasses.id))
        .where(dueAt(now));
      // A class a node holds has its listener on that port; the others need theirs free.
      const unheld = due.filter((c) => !c.leaseUntil || c.leaseUntil.getTime() < Date.now());
      for (const c of unheld)
        if (!(await udpFree(config.host, c.port)))
          throw new Error(`SRT port ${c.port} (class ${c.id}) is taken by another program`);
      if (config.live.rtmpConfigured) {
        const pull = new URL(config.live.rtmpPull);
        const host = pull.hostname.replace(/^\[|\]$/g, '');
        const port = Number(pull.port || 1935);
        if (!(await tcpAnswers(host, port, signal)))
          throw new Error(
            `nginx's rtmp listener at ${host}:${port} (LIVE_RTMP_PULL) does not answer: RTMP encoders cannot stream (npm run cli -- nginx:config --rtmp)`,
          );
      }
    },
  };
}
