/** Calendar days in the school's time zone (OPEN_TZ): what "a day" of watch time means. */

const formats = new Map<string, Intl.DateTimeFormat>();

/** The `YYYY-MM-DD` date of `at` in `timeZone`. */
export function dayIn(timeZone: string, at: Date): string {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    formats.set(timeZone, format);
  }
  return format.format(at);
}

/** The `count` days ending with today (in `timeZone`), oldest first. */
export function lastDays(timeZone: string, now: Date, count: number): string[] {
  const today = dayIn(timeZone, now);
  const base = Date.parse(`${today}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) =>
    new Date(base - (count - 1 - i) * 86_400_000).toISOString().slice(0, 10),
  );
}
