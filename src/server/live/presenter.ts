import type { AdminLiveClass, LiveRecording, StudentLiveClass } from '../../contract/live';
import type { LiveConfig } from '../config';
import type { liveClasses } from '../db/schema';
import { openStreamKey } from './stream-keys';

export type LiveClassRow = typeof liveClasses.$inferSelect;

/** Where an encoder sends the class: the SRT address (its passphrase is the key), the RTMP server, the key. */
export function ingestOf(live: Pick<LiveConfig, 'ingestHost' | 'rtmpUrl'>, row: LiveClassRow, key: string) {
  const host = live.ingestHost.includes(':') ? `[${live.ingestHost}]` : live.ingestHost;
  return {
    srtUrl: `srt://${host}:${row.srtPort}?streamid=${row.id}&passphrase=${key}`,
    rtmpUrl: live.rtmpUrl,
    streamKey: key,
  };
}

/** A class as staff of its course see it: with its ingest and its recording's packaging (recording-progress.ts). */
export function presentAdminClass(
  live: LiveConfig,
  signingKey: Buffer,
  row: LiveClassRow,
  recording: LiveRecording | null,
): AdminLiveClass {
  const key = openStreamKey(signingKey, row.id, row.streamKey);
  return {
    _id: row.id,
    videoId: row.videoId,
    courseId: row.courseId,
    title: row.title,
    description: row.description,
    startsAt: row.startsAt.toISOString(),
    minutes: row.minutes,
    status: row.status,
    ingest: ingestOf(live, row, key),
    recording,
  };
}

/** A class as a student of its course sees it. */
export function presentStudentClass(row: LiveClassRow): StudentLiveClass {
  return {
    _id: row.id,
    videoId: row.videoId,
    title: row.title,
    startsAt: row.startsAt.toISOString(),
    minutes: row.minutes,
    status: row.status,
  };
}
