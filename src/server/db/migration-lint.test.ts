import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { lintMigration } from './migration-lint';

const rules = (sql: string) => lintMigration(sql).map((p) => p.rule);

describe('the migration linter (expand/contract)', () => {
  it('passes what only adds: new tables, nullable or defaulted columns, indexes, triggers', () => {
    expect(
      rules(`CREATE TABLE "notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"body" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "views" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "notes" ADD CONSTRAINT "notes_fk" FOREIGN KEY ("id") REFERENCES "videos"("id") ON DELETE cascade;--> statement-breakpoint
ALTER TABLE "videos" ALTER COLUMN "note" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "videos" ALTER COLUMN "note" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "videos" DROP CONSTRAINT "old_check";--> statement-breakpoint
CREATE INDEX "notes_body" ON "notes" USING btree ("body");--> statement-breakpoint
CREATE OR REPLACE FUNCTION stamp() RETURNS trigger AS $$ BEGIN DROP TABLE x; RETURN NEW; END $$ LANGUAGE plpgsql;
-- DROP TABLE "comments only"
INSERT INTO "notes" ("body") VALUES ('ALTER TABLE a DROP COLUMN b');`),
    ).toEqual([]);
  });

  it('refuses dropping a table or a column, with or without COLUMN and IF EXISTS', () => {
    expect(rules('DROP TABLE "notes";')).toEqual(['drop-table']);
    expect(rules('DROP TABLE IF EXISTS "notes" CASCADE;')).toEqual(['drop-table']);
    expect(rules('ALTER TABLE "videos" DROP COLUMN "note";')).toEqual(['drop-column']);
    expect(rules('alter table videos drop column if exists note;')).toEqual(['drop-column']);
    expect(rules('ALTER TABLE "videos" DROP "note";')).toEqual(['drop-column']);
    expect(rules('ALTER TABLE "videos" ADD COLUMN "a" text, DROP COLUMN "b";')).toEqual(['drop-column']);
  });

  it('refuses renaming a table or a column', () => {
    expect(rules('ALTER TABLE "videos" RENAME TO "lectures";')).toEqual(['rename']);
    expect(rules('ALTER TABLE "videos" RENAME COLUMN "title" TO "name";')).toEqual(['rename']);
    expect(rules('ALTER TABLE videos RENAME title TO name;')).toEqual(['rename']);
  });

  it('refuses a NOT NULL the running version does not fill', () => {
    expect(rules('ALTER TABLE "videos" ADD COLUMN "views" integer NOT NULL;')).toEqual([
      'not-null-without-default',
    ]);
    expect(rules('ALTER TABLE "videos" ALTER COLUMN "note" SET NOT NULL;')).toEqual(['set-not-null']);
  });

  it('names the statement and says why', () => {
    const [problem] = lintMigration('CREATE TABLE a (id int);\n--> statement-breakpoint\nDROP TABLE "b";');
    expect(problem).toMatchObject({ statement: 2, rule: 'drop-table', text: 'DROP TABLE "b"' });
    expect(problem!.message).toMatch(/running version/);
  });

  it('passes every shipped migration, and the command fails on a folder with a contract step', async () => {
    const folder = path.resolve('drizzle');
    for (const file of (await readdir(folder)).filter((f) => f.endsWith('.sql')))
      expect(lintMigration(await readFile(path.join(folder, file), 'utf8')), file).toEqual([]);

    const bad = await mkdtemp(path.join(tmpdir(), 'lectern-lint-'));
    try {
      await writeFile(path.join(bad, '0007_fine.sql'), 'ALTER TABLE "videos" ADD COLUMN "note" text;');
      await writeFile(path.join(bad, '0008_breaks.sql'), 'ALTER TABLE "videos" DROP COLUMN "title";');
      const run = promisify(execFile)(process.execPath, [
        '--import',
        'tsx',
        'scripts/lint-migrations.ts',
        bad,
      ]);
      const failure = await run.then(
        () => undefined,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failure?.code).toBe(1);
      expect(failure?.stderr).toContain('0008_breaks.sql: statement 1 drops a column');
      expect(failure?.stderr).not.toContain('0007_fine');
      expect(failure?.stderr).toContain('post-deploy/');
    } finally {
      await rm(bad, { recursive: true, force: true });
    }
  });
});
