import type { AccessAction, AccessHistoryEvent } from '../../contract/admin-students';
import type { AccessHistoryRow } from './events';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** An audit row as the access history shows it. */
export function presentAccessEvent(row: AccessHistoryRow): AccessHistoryEvent {
  const isVideoEvent = row.action.startsWith('video.');
  const keptTitle = typeof row.details?.videoTitle === 'string' ? row.details.videoTitle : '';
  return {
    _id: row.id,
    at: row.at.toISOString(),
    action: row.action as AccessAction,
    actor: row.actor ? { _id: row.actor.id, name: row.actor.name, username: row.actor.username } : null,
    course: row.course ? { _id: row.course.id, name: row.course.name, batch: row.course.batch } : null,
    video: isVideoEvent ? { _id: row.videoId, title: row.videoTitle ?? keptTitle } : null,
    oldexpiration: iso(row.oldExpiration),
    newexpiration: iso(row.newExpiration),
    reason: row.reason,
  };
}
