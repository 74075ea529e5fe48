/**
 * Expand/contract: an ordinary migration runs at start while nodes of the previous version still
 * serve on the same database, so it may only add. What breaks the old code (it still reads the
 * dropped column, writes the old name, inserts rows without the new NOT NULL value) belongs in
 * `drizzle/post-deploy/`, applied by `npm run cli -- migrate:post-deploy` once every node runs
 * the new version. `npm run lint:migrations` applies these rules to the ordinary folder.
 */

export interface MigrationProblem {
  /** 1-based statement number in the file. */
  statement: number;
  rule: 'drop-table' | 'drop-column' | 'rename' | 'not-null-without-default' | 'set-not-null';
  message: string;
  /** The statement, shortened, for the report. */
  text: string;
}

/** Dollar-quoted bodies (functions, DO blocks), string literals and comments: never DDL of ours. */
function code(sql: string): string {
  return sql
    .replace(/\$(\w*)\$[\s\S]*?\$\1\$/g, "''")
    .replace(/'(?:[^']|'')*'/g, "''")
    .replace(/--[^\n]*/g, ' ')
    .replace(/\/\*[\s\S]*?\*\//g, ' ');
}

/** Splits an ALTER TABLE's actions at top-level commas (not those inside parentheses). */
function actions(statement: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of statement) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  return parts;
}

const DROP_NOT_A_COLUMN = /^(constraint|default|not\s+null|identity|expression)\b/;

function problemsOf(statement: string): Omit<MigrationProblem, 'statement' | 'text'>[] {
  const s = statement.replace(/\s+/g, ' ').trim().toLowerCase();
  const found: Omit<MigrationProblem, 'statement' | 'text'>[] = [];
  if (/^drop table\b/.test(s))
    found.push({ rule: 'drop-table', message: 'drops a table the running version may still use' });
  const alter = /^alter table (?:if exists )?(?:only )?(.*)$/.exec(s);
  if (!alter) return found;
  const body = alter[1]!;
  if (/\brename\b/.test(body))
    found.push({
      rule: 'rename',
      message: 'renames a table or column the running version still uses by name',
    });
  for (const action of actions(body)) {
    const a = action.trim();
    const drop = /\bdrop (?:column )?(?:if exists )?(.*)$/.exec(a);
    if (drop && !/\balter (?:column )?/.test(a.slice(0, drop.index)) && !DROP_NOT_A_COLUMN.test(drop[1]!))
      found.push({ rule: 'drop-column', message: 'drops a column the running version may still read' });
    if (/\badd (?:column )?/.test(a) && !/\badd (constraint|primary|unique|foreign|check)\b/.test(a)) {
      if (/\bnot null\b/.test(a) && !/\bdefault\b/.test(a) && !/\bgenerated\b/.test(a))
        found.push({
          rule: 'not-null-without-default',
          message: 'adds a NOT NULL column without a default: the running version inserts rows without it',
        });
    }
    if (/\balter (?:column )?\S+ set not null\b/.test(a))
      found.push({
        rule: 'set-not-null',
        message: 'makes a column NOT NULL: the running version may still insert rows without it',
      });
  }
  return found;
}

/** The contract statements of one migration file's SQL (drizzle-kit's `--> statement-breakpoint`s or `;`). */
export function lintMigration(sql: string): MigrationProblem[] {
  const statements = code(sql)
    .split(/-->\s*statement-breakpoint|;/)
    .map((s) => s.trim())
    .filter(Boolean);
  return statements.flatMap((statement, i) =>
    problemsOf(statement).map((p) => ({
      ...p,
      statement: i + 1,
      text: statement.replace(/\s+/g, ' ').slice(0, 120),
    })),
  );
}

/**
 * Ordinary migrations allowed to break the rules, by file name, each with the reason. Empty:
 * 0000-0006 only add. A migration listed here must say why running old nodes cannot be hurt.
 */
export const ALLOWED_CONTRACT_MIGRATIONS: Readonly<Record<string, string>> = {};
