import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Mantine's stylesheet is split in two (app/mantine-styles.css in the entry, admin/mantine-admin.css
// for the back office; Notification with the toasts). These checks keep the split whole, in
// Mantine's order, and in step with the components the pages outside the back office import.
const web = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const core = path.dirname(createRequire(import.meta.url).resolve('@mantine/core/styles.css'));
const read = (file: string) => readFileSync(file, 'utf8');

/** The per-component files of @mantine/core, in the order their rules have in styles.css. */
const mantineOrder = (() => {
  const whole = read(path.join(core, 'styles.css'));
  const names = readdirSync(path.join(core, 'styles'))
    .filter((f) => f.endsWith('.css') && !f.endsWith('.layer.css'))
    .map((f) => f.slice(0, -'.css'.length));
  const at = new Map(
    names.map((n) => [n, whole.indexOf(read(path.join(core, 'styles', `${n}.css`)).trim())]),
  );
  return names.filter((n) => at.get(n)! >= 0).sort((a, b) => at.get(a)! - at.get(b)!);
})();

const importsOf = (file: string) =>
  [...read(path.join(web, file)).matchAll(/@import ['"]@mantine\/core\/styles\/([\w-]+)\.css['"];/g)].map(
    (m) => m[1]!,
  );
const entry = importsOf('app/mantine-styles.css');
const admin = importsOf('admin/mantine-admin.css');

/** The Mantine class names (m_xxxxxxxx) that the modules behind `names` give their elements. */
function classesOf(names: Iterable<string>): Set<string> {
  const esm = path.join(core, 'esm');
  const where = new Map<string, string>();
  for (const m of read(path.join(esm, 'index.mjs')).matchAll(/import \{ ([^}]*) \} from "([^"]+)"/g))
    for (const name of m[1]!.split(','))
      where.set(
        name
          .trim()
          .split(/\s+as\s+/)
          .pop()!,
        path.join(esm, m[2]!),
      );
  const seen = new Set<string>();
  const classes = new Set<string>();
  const queue = [...names].flatMap((n) => where.get(n) ?? []);
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = read(file);
    if (file.endsWith('.module.mjs')) for (const c of source.match(/m_[0-9a-f]{8}/g) ?? []) classes.add(c);
    for (const m of source.matchAll(/from "(\.[^"]+)"/g)) queue.push(path.join(path.dirname(file), m[1]!));
  }
  return classes;
}

/** What the web app outside admin/ imports from @mantine/core (values, not types). */
function importedOutsideAdmin(): Set<string> {
  const names = new Set<string>();
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (file !== path.join(web, 'admin')) visit(file);
      } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$|^test-/.test(entry.name)) {
        for (const m of read(file).matchAll(/import\s*(type\s*)?\{([^}]*)\}\s*from\s*'@mantine\/core'/g)) {
          if (m[1]) continue;
          for (const name of m[2]!.split(',').map((s) => s.trim()))
            if (name && !name.startsWith('type ')) names.add(name.split(/\s+as\s+/)[0]!);
        }
      }
    }
  };
  visit(web);
  return names;
}

describe('the Mantine stylesheet, split', () => {
  it('keeps the order of @mantine/core/styles.css in each part', () => {
    const inOrder = (list: string[]) => mantineOrder.filter((n) => list.includes(n));
    expect(entry).toEqual(inOrder(entry));
    expect(admin).toEqual(inOrder(admin));
  });

  it('loads every part of it once: the entry, the back office, or the toasts (Notification)', () => {
    expect([...entry, ...admin, 'Notification'].sort()).toEqual([...mantineOrder].sort());
    expect(read(path.join(web, 'ui/Toaster.tsx'))).toContain(
      "import '@mantine/core/styles/Notification.css';",
    );
  });

  it('has in the entry the styles of every component used outside the back office', () => {
    const defined = new Set(
      entry.flatMap((n) => read(path.join(core, 'styles', `${n}.css`)).match(/m_[0-9a-f]{8}/g) ?? []),
    );
    const used = classesOf(importedOutsideAdmin());
    expect(used.size).toBeGreaterThan(50);
    expect([...used].filter((c) => !defined.has(c))).toEqual([]);
  });
});
