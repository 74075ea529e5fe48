import { zonedParts } from '../../contract/school-time';
import type { BackupSchedule } from '../config';
import type { AppContext } from '../context';
import { createRun, hasAnyRun, hasScheduledRun } from './runs';

/** A node that was down at the scheduled time still starts the day's backup this late (a fresh install waits for the next one). */
const ON_TIME_WINDOW_MS = 60 * 60_000;

const pad = (n: number) => String(n).padStart(2, '0');

export const scheduleTime = (schedule: BackupSchedule) =>
  schedule === 'off' ? null : `${pad(schedule.hour)}:${pad(schedule.minute)}`;

/**
 * The instant `hour:minute` happens on the calendar day `year-month-day` in `timeZone` (the offset
 * taken at that moment, so daylight saving time is respected).
 */
function zonedInstant(
  day: { year: number; month: number; day: number },
  hour: number,
  minute: number,
  timeZone: string,
): Date {
  const asUtc = Date.UTC(day.year, day.month - 1, day.day, hour, minute);
  let guess = asUtc;
  for (let i = 0; i < 2; i++) {
    const p = zonedParts(guess, timeZone);
    const shown = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
    guess += asUtc - shown;
  }
  return new Date(guess);
}

/** Today's slot in the school's time zone, whether it has come yet, and the next one after now. */
export function backupSlot(
  now: Date,
  schedule: Exclude<BackupSchedule, 'off'>,
  timeZone: string,
): { day: string; at: Date; due: boolean; next: Date } {
  const today = zonedParts(now, timeZone);
  const at = zonedInstant(today, schedule.hour, schedule.minute, timeZone);
  const day = `${today.year}-${pad(today.month)}-${pad(today.day)}`;
  const due = now.getTime() >= at.getTime();
  if (!due) return { day, at, due, next: at };
  const tomorrow = zonedParts(at.getTime() + 36 * 3_600_000, timeZone);
  return { day, at, due, next: zonedInstant(tomorrow, schedule.hour, schedule.minute, timeZone) };
}

/** The next scheduled start after now, or null when BACKUP_SCHEDULE=off. */
export function nextScheduledBackup(ctx: AppContext): Date | null {
  const { backupSchedule, openTimeZone } = ctx.config;
  if (backupSchedule === 'off') return null;
  return backupSlot(ctx.clock.now(), backupSchedule, openTimeZone).next;
}

/**
 * The runner's schedule check (every node runs it every minute): once the day's time has come, adds
 * that school day's run. The unique day and the one-active-run index make it once per day across
 * nodes; a day whose run could not be added (a backup already running) is tried again next minute.
 * A node started more than an hour late backs up at once only if the school has backed up before.
 */
export async function queueScheduledBackup(ctx: AppContext): Promise<boolean> {
  const { backupSchedule, openTimeZone } = ctx.config;
  if (backupSchedule === 'off') return false;
  const now = ctx.clock.now();
  const slot = backupSlot(now, backupSchedule, openTimeZone);
  if (!slot.due || (await hasScheduledRun(ctx.db, slot.day))) return false;
  const late = now.getTime() - slot.at.getTime() > ON_TIME_WINDOW_MS;
  if (late && !(await hasAnyRun(ctx.db))) return false;
  const run = await createRun(ctx.db, { trigger: 'schedule', scheduledFor: slot.day, now });
  if (run) ctx.logger.info({ run: run.id, day: slot.day }, 'scheduled backup queued');
  return Boolean(run);
}
