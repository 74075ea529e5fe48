import { zonedParts } from './school-time';

/** When students are let in (OPEN_HOURS): all day, or from one hour of the school's day to another. */
export type OpenHours = 'always' | [from: number, to: number];

export interface OpeningState {
  /** Hour of day (0-23) in the configured time zone. */
  hour: number;
  open: boolean;
  opensAt: Date | null;
  closesAt: Date | null;
  timeZone: string;
}

const HOUR_MS = 3_600_000;

function isOpenHour(hour: number, hours: OpenHours): boolean {
  if (hours === 'always') return true;
  const [from, to] = hours;
  return from < to ? hour >= from && hour < to : hour >= from || hour < to; // "22-6" wraps midnight
}

/** Whether the student surface is open at `now`, and when that next changes. */
export function openingState(now: Date, hours: OpenHours, timeZone: string): OpeningState {
  const { hour, minute, second } = zonedParts(now, timeZone);
  const open = isOpenHour(hour, hours);
  if (hours === 'always') return { hour, open, opensAt: null, closesAt: null, timeZone };
  // Walk whole local hours forward (time zones such as IST are offset by half hours from UTC).
  const hourStart = now.getTime() - (minute * 60 + second) * 1000 - now.getMilliseconds();
  let change: Date | null = null;
  for (let step = 1; step <= 48 && !change; step++) {
    const candidate = new Date(hourStart + step * HOUR_MS);
    if (isOpenHour(zonedParts(candidate, timeZone).hour, hours) !== open) change = candidate;
  }
  return { hour, open, opensAt: open ? null : change, closesAt: open ? change : null, timeZone };
}

/** "10:00" in the configured zone, for messages. */
export function formatLocalTime(time: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(time);
}

export function closedMessage(state: OpeningState, productName: string): string {
  const when = state.opensAt
    ? ` It opens again at ${formatLocalTime(state.opensAt, state.timeZone)} (${state.timeZone}).`
    : '';
  return `${productName} is closed right now.${when}`;
}
