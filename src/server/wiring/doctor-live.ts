import type { AppContext } from '../context';
import { liveIngestCheck } from '../live/health-check';
import { fromCheck, type DoctorLine } from './doctor-line';

/**
 * The doctor's line for the live ingest (LIVE_INGEST=on): the shared check (SRT ports, nginx's rtmp
 * listener), and whether RTMP is set up at all.
 */
export async function liveIngestLine(ctx: Pick<AppContext, 'config' | 'db' | 'clock'>): Promise<DoctorLine> {
  const line = await fromCheck(
    liveIngestCheck(ctx),
    'free the SRT port (LIVE_SRT_PORTS) or start nginx with the block `npm run cli -- nginx:config --rtmp` prints',
  );
  if (line.verdict !== 'ok' || ctx.config.live.rtmpConfigured) return line;
  return {
    ...line,
    detail: `SRT ports free; RTMP not configured (LIVE_RTMP_URL unset: encoders use SRT)`,
  };
}
