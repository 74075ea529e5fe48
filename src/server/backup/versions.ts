import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrationJournal } from '../db/client';
import type { Query } from './database';

let version: string | undefined;

/** package.json's version, found above this module (src/server/backup or dist/server). */
export function lecternVersion(): string {
  if (version) return version;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++, dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'lectern') return (version = pkg.version ?? 'unknown');
    }
  }
  return (version = 'unknown');
}

/** The tag of the database's last applied migration (`0006_captions_playback_sessions`), or its stamp if unknown here. */
export async function lastMigrationOf(query: Query): Promise<string> {
  const [row] = await query<{ created_at: string }>(
    'select created_at::text as created_at from drizzle.__drizzle_migrations order by created_at desc limit 1',
  );
  if (!row) return 'none';
  const entry = migrationJournal().find((m) => String(m.when) === row.created_at);
  return entry?.tag ?? `unknown-${row.created_at}`;
}

/** Whether this code knows the migration a backup ends with; a backup from newer code does not load here. */
export const knowsMigration = (tag: string) =>
  tag === 'none' || migrationJournal().some((m) => m.tag === tag);

/** The contract migrations (db/post-deploy.ts) the database has applied, by name. */
export async function postDeployOf(query: Query): Promise<string[]> {
  const [table] = await query<{ present: boolean }>(
    `select to_regclass('drizzle.lectern_post_deploy_migrations') is not null as present`,
  );
  if (!table?.present) return [];
  const rows = await query<{ name: string }>(
    'select name from drizzle.lectern_post_deploy_migrations order by name',
  );
  return rows.map((r) => r.name);
}
