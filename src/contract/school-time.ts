/** Wall-clock parts of an instant in the school's time zone (OPEN_TZ); zod-free, for server and web. */
export interface ZonedParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** Building a formatter costs ~0.1 ms and a request may need a dozen: one per time zone. */
const formats = new Map<string, Intl.DateTimeFormat>();

/** The instant's date and time of day in `timeZone`. */
export function zonedParts(at: Date | number, timeZone: string): ZonedParts {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(timeZone, format);
  }
  const parts = format.formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour'),
    minute: get('minute'),
    second: get('second'),
  };
}

/** The instant's calendar day in `timeZone`, as days since 1970-01-01 (so days subtract). */
export function schoolDay(at: Date | number, timeZone: string): number {
  const { year, month, day } = zonedParts(at, timeZone);
  return Date.UTC(year, month - 1, day) / 86_400_000;
}
