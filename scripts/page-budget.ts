/**
 * `npm run budget` (in `npm test`, after the build): the JavaScript each student page runs before
 * it is interactive, against its budget (docs/PERFORMANCE.md). That is the entry chunk and the
 * chunks of the page's routes with their static imports, as the server preloads them
 * (ROUTE_MODULES), gzip -9, from the build in dist/web. A page over its budget fails the run, named
 * with its size and the largest sources in its chunks (from the build's bundle map), so that a
 * heavy import shows where it came in. `--map N` prints each page's N largest sources anyway (the
 * bundle map's top entries); `--dist DIR` reads another build.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { ROUTE_MODULES, staticClosure, type Manifest } from '../src/server/http/route-preloads';
import { runIfMain } from '../test/support/child-main';
import { BUNDLE_MAP_FILE, type BundleMap } from './bundle-map';

/**
 * KiB of gzip each student page may run before it is interactive: what it ran when issue 40 closed
 * (149.7, 157.9, 158.2 and 159.9), and about 5% for the next features. The round before it had put
 * 185 and 208 KiB behind the dashboard and the course page (Lighthouse mobile 84 and 83).
 */
export const PAGE_BUDGETS = [
  { page: 'sign-in', url: '/', kib: 157 },
  { page: 'reset-password', url: '/reset-password', kib: 165 },
  { page: 'dashboard', url: '/dashboard', kib: 165 },
  { page: 'course', url: '/course/c1', kib: 167 },
] as const;

const KIB = 1024;
const kib = (bytes: number) => `${(bytes / KIB).toFixed(1)} KiB`;

/** A source as the map's top entries group it: a package (`node_modules/react-dom`), or a file of ours. */
function groupOf(source: string): string {
  const parts = source.split('/');
  if (parts[0] !== 'node_modules') return source;
  return parts.slice(0, parts[1]?.startsWith('@') ? 3 : 2).join('/');
}

/** The largest sources in `files`, by their share of the gzip size, best first. */
function topSources(map: BundleMap, files: string[], count: number): [string, number][] {
  const sizes = new Map<string, number>();
  for (const file of files)
    for (const [source, { gzip }] of Object.entries(map[file] ?? {}))
      sizes.set(groupOf(source), (sizes.get(groupOf(source)) ?? 0) + gzip);
  return [...sizes].sort((a, b) => b[1] - a[1]).slice(0, count);
}

export interface PageFigure {
  page: string;
  budget: number;
  /** Gzip -9 bytes of every chunk the page runs before it is interactive. */
  bytes: number;
  files: string[];
}

/** Each budgeted page's JavaScript before it is interactive, from the build in `dist`. */
export function measurePages(dist: string): PageFigure[] {
  const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Manifest;
  const entries = Object.keys(manifest).filter((key) => manifest[key]!.isEntry);
  const gzipOf = new Map<string, number>();
  const gzip = (file: string) =>
    gzipOf.get(file) ??
    gzipOf.set(file, gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length).get(file)!;
  return PAGE_BUDGETS.map(({ page, url, kib: budget }) => {
    const route = ROUTE_MODULES.find((r) => r.path.test(url));
    if (!route) throw new Error(`${page}: no route in ROUTE_MODULES for ${url}`);
    const missing = route.modules.filter((module) => !manifest[module]);
    if (missing.length) throw new Error(`${page}: ${missing.join(', ')} not in the build's manifest`);
    const files = [...staticClosure(manifest, [...entries, ...route.modules])].map((k) => manifest[k]!.file);
    return { page, budget, files, bytes: files.reduce((sum, file) => sum + gzip(file), 0) };
  });
}

/** Prints each page against its budget; false when one is over. */
function checkBudgets(): boolean {
  const { values } = parseArgs({
    options: { dist: { type: 'string', default: 'dist/web' }, map: { type: 'string' } },
  });
  const dist = path.resolve(values.dist);
  const mapFile = path.join(dist, BUNDLE_MAP_FILE);
  const map = existsSync(mapFile) ? (JSON.parse(readFileSync(mapFile, 'utf8')) as BundleMap) : undefined;
  const figures = measurePages(dist);
  console.log('JavaScript each student page runs before it is interactive (gzip -9), against its budget:');
  let over = 0;
  for (const { page, budget, bytes, files } of figures) {
    const fits = bytes <= budget * KIB;
    if (!fits) over++;
    console.log(
      `  ${page.padEnd(15)} ${kib(bytes).padStart(10)}  budget ${budget} KiB  ${fits ? 'ok' : 'OVER'}`,
    );
    const shown = values.map ? Number(values.map) : fits ? 0 : 8;
    if (shown > 0 && map) {
      for (const [source, size] of topSources(map, files, shown))
        console.log(`      ${kib(size).padStart(10)}  ${source}`);
    }
  }
  if (over) {
    console.error(
      `${over} student page(s) over budget: load what the first view does not need when it is needed ` +
        '(React.lazy, import()), or raise the budget in scripts/page-budget.ts with the reason.',
    );
    return false;
  }
  return true;
}

runIfMain(import.meta.url, async () => checkBudgets());
