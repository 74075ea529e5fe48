import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { knownMigrations, migrationsFolder } from './migration-state';

describe('the migrations folder', () => {
  it("is drizzle-kit's drizzle/ at the top in the source tree, and its journal names every SQL file there", async () => {
    expect(migrationsFolder()).toBe(path.resolve('drizzle'));
    // A migration merged into another folder, or a file drizzle-kit did not journal, fails here.
    const files = (await readdir(migrationsFolder())).filter((f) => f.endsWith('.sql'));
    expect(knownMigrations().map((m) => `${m.tag}.sql`)).toEqual(files.sort());
  });
});
