import { Readable } from 'node:stream';

/** Cells a spreadsheet would run as a formula: they get a leading apostrophe (OWASP's CSV injection advice). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One RFC 4180 field: quoted when it holds a comma, quote, CR or LF; text that looks like a formula is defused. */
export function csvField(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export type CsvValue = string | number | boolean | null | undefined;

/** A CSV line with its CRLF. */
export const csvLine = (values: readonly CsvValue[]): string => values.map(csvField).join(',') + '\r\n';

/** Lines are sent in chunks of about this many characters: one write per row would cost more than the row. */
const CHUNK_CHARS = 64 * 1024;

/**
 * A UTF-8 CSV download: a byte-order mark (so Excel reads UTF-8), the header, then the rows as
 * `rows` yields them, streamed with backpressure (nothing holds the whole file).
 */
export function csvStream(header: readonly string[], rows: AsyncIterable<readonly CsvValue[]>): Readable {
  async function* lines() {
    let chunk = '\uFEFF' + csvLine(header);
    for await (const row of rows) {
      chunk += csvLine(row);
      if (chunk.length >= CHUNK_CHARS) {
        yield chunk;
        chunk = '';
      }
    }
    if (chunk) yield chunk;
  }
  return Readable.from(lines(), { objectMode: false });
}

/** A file name safe for a Content-Disposition header. */
export const csvFileName = (...parts: string[]) =>
  `${parts
    .join('-')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)}.csv`;
