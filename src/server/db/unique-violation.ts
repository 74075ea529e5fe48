/**
 * Whether a write failed on a unique index (PostgreSQL 23505), looking through Drizzle's wrapper.
 * A concurrent writer may take a name between a service's check and its write: the index decides,
 * and the service answers 409 as its check would have.
 */
export function isUniqueViolation(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e)
    if (e.code === '23505') return true;
  return false;
}

/** Runs `write`; a unique violation becomes `conflict()`'s error instead. */
export async function onUniqueViolation<T>(
  write: () => Promise<T>,
  conflict: () => Error | Promise<Error>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw await conflict();
    throw error;
  }
}
