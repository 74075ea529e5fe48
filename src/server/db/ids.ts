import { notFound } from '../errors';

/**
 * A UUID as ids are written (lower-case hex): the one pattern behind `isUuid`, the stores' id check
 * (`UUID_PATTERN`) and the stream URLs (videos/stream-urls.ts), which the router, the fast path and the
 * playlists use.
 */
export const UUID_SOURCE = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

const UUID = new RegExp(`^${UUID_SOURCE}$`, 'i');

/** Whether `id` can name a row; anything else is an unknown id (404), never a database error. */
export const isUuid = (id: string): boolean => UUID.test(id);

/** The ids that can name rows, lower-cased and without repeats. */
export const uniqueUuids = (ids: string[]): string[] => [
  ...new Set(ids.map((id) => id.trim().toLowerCase())),
];

/** The row `select` finds for `id`, or a 404 with `message`: an id that is not a uuid names nothing. */
export async function oneById<Row>(id: string, message: string, select: () => Promise<Row[]>): Promise<Row> {
  const [row] = isUuid(id) ? await select() : [];
  if (!row) throw notFound(message);
  return row;
}
