// Bundles the server entry points into dist/server; npm packages stay external (installed by npm ci).
import { build } from 'esbuild';
import { cp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
/** JSON from npm packages (webvtt-parser's entity table) is bundled: Node refuses a JSON module imported without its type attribute. */
const bundleJson = {
  name: 'bundle-package-json',
  setup(b) {
    b.onResolve({ filter: /^[^./].*\.json$/ }, (args) => ({ path: require.resolve(args.path) }));
  },
};

await rm('dist/server', { recursive: true, force: true });
await build({
  entryPoints: ['src/server/main.ts', 'src/server/cli.ts'],
  outdir: 'dist/server',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22.19', // package.json's engines
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [bundleJson],
});
// Migrations are read at start, next to the bundle (db/migration-state.ts).
await cp('drizzle', 'dist/server/migrations', { recursive: true });
