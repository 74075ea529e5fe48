import type { VideoProgress } from '../../contract/progress';
import type { videoProgress } from '../db/schema';

type ProgressRow = Pick<
  typeof videoProgress.$inferSelect,
  'positionSeconds' | 'watchedSeconds' | 'completedAt'
>;

/** Seconds rounded to a tenth: the float4 column's noise is nobody's business. */
const tenth = (seconds: number) => Math.round(seconds * 10) / 10;

/** A progress row as the player sees it. */
export function presentProgress(row: ProgressRow): VideoProgress {
  return {
    position: tenth(row.positionSeconds),
    watched: tenth(row.watchedSeconds),
    completed: row.completedAt !== null,
  };
}
