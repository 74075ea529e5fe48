import { plural } from '../../../contract/plural';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const two = (n: number) => String(n).padStart(2, '0');

/** A course day (`YYYY-MM-DD`) or an instant (in the admin's zone) as dd/mm/yyyy (SPEC.md section 2). */
export function formatDMY(value: string | null | undefined): string {
  if (!value) return '';
  const day = DAY.exec(value);
  if (day) return `${day[3]}/${day[2]}/${day[1]}`;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return `${two(date.getDate())}/${two(date.getMonth() + 1)}/${date.getFullYear()}`;
}

/** dd/mm/yyyy hh:mm in the admin's zone. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return `${formatDMY(value)} ${two(date.getHours())}:${two(date.getMinutes())}`;
}

/** Bytes as the upload overlay shows them: "5.0 MB" (1 MB = 1,048,576 bytes, as the 5 MB chunk). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}

/** A Date from the date picker as the API's `YYYY-MM-DD`. */
export function toDay(value: string | Date | null | undefined): string {
  if (!value) return '';
  if (typeof value === 'string') return value.slice(0, 10);
  return `${value.getFullYear()}-${two(value.getMonth() + 1)}-${two(value.getDate())}`;
}

/** A course as the dropdowns show it: 'name - Batch n' (SPEC.md section 2). */
export function courseLabel(course: { name: string; batch: number }): string {
  return `${course.name} - Batch ${course.batch}`;
}

/** What an enrol call did, after the server's message: "… 2 students enrolled, 1 extended." */
export function enrolMessage(r: {
  message: string;
  enrolled: number;
  granted: number;
  extended: number;
}): string {
  const summary = [
    r.enrolled && `${plural(r.enrolled, 'student')} enrolled`,
    r.granted && `${r.granted} re-granted`,
    r.extended && `${r.extended} extended`,
  ]
    .filter(Boolean)
    .join(', ');
  return summary ? `${r.message} ${summary}.` : r.message;
}
