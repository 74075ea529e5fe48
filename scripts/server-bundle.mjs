// The server bundle, as `npm run build:server` (scripts/build-server.mjs) and the rush benchmark
// (bench/rush.ts) make it: one set of esbuild options, so the benchmark measures what ships.
import { build } from 'esbuild';
import { cp } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** JSON from npm packages (webvtt-parser's entity table) is bundled: Node refuses a JSON module imported without its type attribute. */
const bundleJson = {
  name: 'bundle-package-json',
  setup(b) {
    b.onResolve({ filter: /^[^./].*\.json$/ }, (args) => ({ path: require.resolve(args.path) }));
  },
};

/**
 * drizzle-orm is bundled; every other package stays external (installed by npm ci). Node reads a
 * package's package.json for each of its ES modules it loads, and drizzle-orm's is 179 KB (an export
 * for every file), for the 150-odd modules a server loads: a second of CPU at every start of a server
 * or a CLI run, half of all module loading, gone once its code is in the bundle.
 */
const BUNDLED = /^drizzle-orm(\/|$)/;
const externalPackagesButDrizzle = {
  name: 'external-packages-but-drizzle',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      BUNDLED.test(args.path) || args.path.endsWith('.json')
        ? undefined
        : { path: args.path, external: true },
    );
  },
};

/**
 * Bundles `entries` (names under src/server, without .ts) into `outdir`, with the migrations beside
 * them (read at start, db/migration-state.ts).
 */
export async function bundleServerEntries(entries, outdir, { sourcemap = false } = {}) {
  await build({
    entryPoints: entries.map((entry) => path.join(root, 'src/server', `${entry}.ts`)),
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22.19', // package.json's engines
    sourcemap,
    logLevel: 'warning',
    plugins: [bundleJson, externalPackagesButDrizzle],
  });
  await cp(path.join(root, 'drizzle'), path.join(outdir, 'migrations'), { recursive: true });
}
