/**
 * The product imports of src/ as dependency-cruiser reads them with the lint's own configuration,
 * and the cycles among them: between files, between the server's parts (scripts/server-layers.mjs)
 * and between the web app's folders. `npm run graph` draws them into docs/ARCHITECTURE.md,
 * `npm run lint:folders` (scripts/folder-cycles.mjs) refuses a folder cycle.
 */
import path from 'node:path';
import { cruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { pathsOf, placeOf } from './server-layers.mjs';

/** Strongly connected groups of more than one node: the cycles of a graph, each group once. */
export function cycles(edges) {
  const next = new Map();
  for (const [from, to] of edges) {
    if (!next.has(from)) next.set(from, new Set());
    if (!next.has(to)) next.set(to, new Set());
    if (from !== to) next.get(from).add(to);
  }
  const index = new Map();
  const low = new Map();
  const stack = [];
  const groups = [];
  const visit = (node) => {
    index.set(node, index.size);
    low.set(node, index.get(node));
    stack.push(node);
    for (const to of next.get(node)) {
      if (!index.has(to)) visit(to);
      if (stack.includes(to)) low.set(node, Math.min(low.get(node), low.get(to)));
    }
    if (low.get(node) !== index.get(node)) return;
    const group = stack.splice(stack.indexOf(node));
    if (group.length > 1) groups.push(group.sort());
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return groups;
}

/** A part's key: its paths (`db/`, or the files of a list). */
export const keyOf = (part) => pathsOf(part).join(' ');

/** The folder of a web app file below src/web/ (`admin/access`, `.` for the top), else undefined. */
const webFolder = (file) =>
  file.startsWith('src/web/') ? path.dirname(file).slice('src/web/'.length) || '.' : undefined;

/**
 * Reads src/ below `root` (with its .dependency-cruiser.mjs and tsconfig.json), tests left out:
 * - `imports`: [from, to] between our own product files;
 * - `parts`: the server's parts met, by key, each with its layer, index and label;
 * - `serverImports`: `{ from, to, a, b }`, an import and the parts of its two ends;
 * - `fileCycles`, `serverCycles` (groups of part labels), `webCycles` (groups of web folders);
 * - `closing(where, group)`: the imports inside a cycle group of 'server' or 'web'.
 */
export async function readImportGraph(root = process.cwd()) {
  const here = process.cwd();
  process.chdir(root);
  try {
    const options = await extractDepcruiseOptions('./.dependency-cruiser.mjs');
    const testCode = options.ruleSet.forbidden
      .find((rule) => rule.name === 'product-not-tests')
      .to.path.map((pattern) => new RegExp(pattern));
    const isProduct = (file) => !testCode.some((pattern) => pattern.test(file));
    const { output } = await cruise(['src'], { ...options, validate: false }, undefined, {
      tsConfig: extractTSConfig('tsconfig.json'),
    });
    const imports = output.modules
      .filter((m) => isProduct(m.source))
      .flatMap((m) =>
        m.dependencies.filter((d) => d.resolved.startsWith('src/')).map((d) => [m.source, d.resolved]),
      )
      .filter(([, to]) => isProduct(to));
    return graphOf(imports);
  } finally {
    process.chdir(here);
  }
}

function graphOf(imports) {
  const parts = new Map();
  const partOf = (file) => {
    const place = placeOf(file);
    if (!place) return undefined;
    const key = keyOf(place.part);
    const label = pathsOf(place.part)
      .map((p) => p.replace(/\.ts$/, ''))
      .join(' · ');
    if (!parts.has(key)) parts.set(key, { ...place, key, label });
    return parts.get(key);
  };
  const serverImports = imports
    .map(([from, to]) => ({ from, to, a: partOf(from), b: partOf(to) }))
    .filter(({ a, b }) => a && b);
  const webImports = imports
    .map(([from, to]) => ({ from, to, a: webFolder(from), b: webFolder(to) }))
    .filter(({ a, b }) => a && b && a !== b);

  const serverCycles = cycles(
    serverImports.filter(({ a, b }) => a !== b).map(({ a, b }) => [a.label, b.label]),
  );
  const webCycles = cycles(webImports.map(({ a, b }) => [a, b]));
  const between = {
    server: serverImports.map(({ from, to, a, b }) => ({ from, to, a: a.label, b: b.label })),
    web: webImports,
  };
  /** The imports between the members of a cycle group of `where` ('server' or 'web'): `from → to`. */
  const closing = (where, group) =>
    between[where]
      .filter(({ a, b }) => a !== b && group.includes(a) && group.includes(b))
      .map(({ from, to }) => `${from} → ${to}`);

  return { imports, parts, serverImports, fileCycles: cycles(imports), serverCycles, webCycles, closing };
}
