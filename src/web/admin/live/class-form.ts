import { LIVE_MINUTES_MAX, LIVE_MINUTES_MIN, type AdminLiveClass } from '../../../contract/live';

/** What the schedule and edit forms hold: the start as an `<input type="datetime-local">` value, in the staff member's zone. */
export interface ClassFormValues {
  courseId: string | null;
  title: string;
  description: string;
  startsLocal: string;
  minutes: number | string;
}

const two = (n: number) => String(n).padStart(2, '0');

/** An instant as a datetime-local value (`YYYY-MM-DDTHH:mm`) in this browser's zone. */
export function toLocalInput(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** A datetime-local value back as the API's ISO instant; '' when it does not read as a time. */
export function fromLocalInput(local: string): string {
  if (!local) return '';
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString();
}

export const emptyClassForm = (): ClassFormValues => ({
  courseId: null,
  title: '',
  description: '',
  startsLocal: '',
  minutes: 60,
});

export const classFormOf = (c: AdminLiveClass): ClassFormValues => ({
  courseId: c.courseId,
  title: c.title,
  description: c.description,
  startsLocal: toLocalInput(c.startsAt),
  minutes: c.minutes,
});

/** What is missing before the form may be sent (the server has the last word: opening hours, ports). */
export function formProblem(values: ClassFormValues, withCourse: boolean): string | null {
  if (withCourse && !values.courseId) return 'Choose the course.';
  if (!values.title.trim()) return 'A class needs a title.';
  if (!fromLocalInput(values.startsLocal)) return 'Choose when the class starts.';
  const minutes = Number(values.minutes);
  if (!Number.isInteger(minutes) || minutes < LIVE_MINUTES_MIN || minutes > LIVE_MINUTES_MAX)
    return `A class lasts ${LIVE_MINUTES_MIN} to ${LIVE_MINUTES_MAX} minutes.`;
  return null;
}

/** Which list a class is in: now, still to come, or over. */
export function classGroup(c: Pick<AdminLiveClass, 'status'>): 'live' | 'upcoming' | 'ended' {
  return c.status === 'live' ? 'live' : c.status === 'scheduled' ? 'upcoming' : 'ended';
}

/** "dd/mm/yyyy hh:mm – hh:mm" of a class, in the staff member's zone. */
export function classWhen(c: Pick<AdminLiveClass, 'startsAt' | 'minutes'>, format: (iso: string) => string) {
  const end = new Date(new Date(c.startsAt).getTime() + c.minutes * 60_000);
  return `${format(c.startsAt)} – ${two(end.getHours())}:${two(end.getMinutes())} (${c.minutes} min)`;
}
