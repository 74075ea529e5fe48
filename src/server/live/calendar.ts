import type { LiveClassRow } from './presenter';
import { classEnd } from '../http/opening-gate';

/**
 * A class as an iCalendar event (RFC 5545): one UID per class, so a calendar that imported it
 * replaces it when a changed copy (a higher SEQUENCE) arrives, and removes it on a CANCEL.
 */
export interface CalendarEvent {
  row: Pick<LiveClassRow, 'id' | 'title' | 'description' | 'startsAt' | 'minutes' | 'updatedAt'>;
  /** Where the class plays: `/course/{courseId}?video={videoId}` on PUBLIC_URL. */
  url: string;
  productName: string;
  /** Domain of the UID (PUBLIC_URL's host name). */
  host: string;
  method?: 'PUBLISH' | 'REQUEST' | 'CANCEL';
}

const stamp = (at: Date) =>
  at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** TEXT values escape backslash, semicolon, comma and line breaks. */
const text = (value: string) =>
  value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');

/** Lines longer than 75 octets are folded (a CRLF and a space), never inside a UTF-8 character. */
function fold(line: string): string {
  const out: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char);
    if (octets + size > (out.length ? 74 : 75)) {
      out.push(current);
      current = '';
      octets = 0;
    }
    current += char;
    octets += size;
  }
  out.push(current);
  return out.join('\r\n ');
}

export function classCalendar({ row, url, productName, host, method = 'PUBLISH' }: CalendarEvent): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//${text(productName)}//Live classes//EN`,
    'CALSCALE:GREGORIAN',
    `METHOD:${method}`,
    'BEGIN:VEVENT',
    `UID:live-class-${row.id}@${host}`,
    // Each change to the row is a new sequence: seconds since the epoch of its last change.
    `SEQUENCE:${Math.floor(row.updatedAt.getTime() / 1000)}`,
    `DTSTAMP:${stamp(row.updatedAt)}`,
    `DTSTART:${stamp(row.startsAt)}`,
    `DTEND:${stamp(classEnd(row))}`,
    `SUMMARY:${text(row.title)}`,
    ...(row.description
      ? [`DESCRIPTION:${text(`${row.description}\n\n${url}`)}`]
      : [`DESCRIPTION:${text(url)}`]),
    `URL:${url}`,
    `STATUS:${method === 'CANCEL' ? 'CANCELLED' : 'CONFIRMED'}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(fold).join('\r\n')}\r\n`;
}
