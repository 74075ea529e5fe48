/** Calendar days in the school's time zone (OPEN_TZ): what "a day" of watch time means. */
import { schoolDay } from '../../contract/school-time';

const DAY_MS = 86_400_000;
const isoDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** The `YYYY-MM-DD` date of `at` in `timeZone`. */
export function dayIn(timeZone: string, at: Date): string {
  return isoDay(schoolDay(at, timeZone));
}

/** The `count` days ending with today (in `timeZone`), oldest first. */
export function lastDays(timeZone: string, now: Date, count: number): string[] {
  const today = schoolDay(now, timeZone);
  return Array.from({ length: count }, (_, i) => isoDay(today - (count - 1 - i)));
}
