// `npm run lint:migrations`: refuses an ordinary migration that would break nodes still running the
// previous version (src/server/db/migration-lint.ts says which statements, and where they go instead).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ALLOWED_CONTRACT_MIGRATIONS, lintMigration } from '../src/server/db/migration-lint';

const folder = process.argv[2] ?? 'drizzle';
let failed = 0;
let checked = 0;
for (const file of readdirSync(folder)
  .filter((f) => f.endsWith('.sql'))
  .sort()) {
  checked++;
  const name = file.slice(0, -4);
  if (name in ALLOWED_CONTRACT_MIGRATIONS) continue;
  for (const problem of lintMigration(readFileSync(path.join(folder, file), 'utf8'))) {
    failed++;
    console.error(
      `${path.join(folder, file)}: statement ${problem.statement} ${problem.message} (${problem.rule}): ${problem.text}`,
    );
  }
}
if (failed) {
  console.error(
    `\n${failed} contract statement${failed === 1 ? '' : 's'} in ordinary migrations: move ${failed === 1 ? 'it' : 'them'} to ${folder}/post-deploy/ (applied by \`npm run cli -- migrate:post-deploy\` once every node runs the new version), or split the change into expand and contract steps (docs/OPERATIONS.md, "Upgrades").`,
  );
  process.exit(1);
}
console.log(`${checked} migrations checked: each only adds (post-deploy/ holds the contract steps).`);
