import { openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import path from 'node:path';

export class DatabaseInUseError extends Error {}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes `DATA_DIR/db.lock` for this process. A lock left by a process that is gone is taken over;
 * one held by a live process is refused with a message that says what to do.
 */
export function acquireEmbeddedLock(dataDir: string): () => Promise<void> {
  const lockPath = path.join(dataDir, 'db.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return async () => rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(lockPath, 'utf8').trim());
      if (holder && holder !== process.pid && isAlive(holder)) {
        throw new DatabaseInUseError(
          `The embedded database in ${dataDir} is in use by process ${holder} (the Lectern server?). ` +
            'Stop it and run this again, or use PostgreSQL (DATABASE_URL) so both can run at once. Nothing was changed.',
        );
      }
      rmSync(lockPath, { force: true });
    }
  }
  throw new DatabaseInUseError(`Could not take the lock ${lockPath}.`);
}
