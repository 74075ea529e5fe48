/** The live ingests of this process, told when a class is scheduled or moved here (`classes.ts`). */
const listeners = new Set<() => void>();

/** Calls `listener` after each class scheduled or moved in this process; answers the unsubscribe. */
export function onScheduleChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A class was scheduled or moved: an idle ingest on the embedded database looks at once. */
export function scheduleChanged(): void {
  for (const listener of listeners) listener();
}
