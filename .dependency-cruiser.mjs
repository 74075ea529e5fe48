/**
 * The import rules `npm run lint` checks with dependency-cruiser (docs/ARCHITECTURE.md, "Layers").
 * Imports that broke a rule when it was written are listed in
 * .dependency-cruiser-known-violations.json (`npm run lint:deps:baseline` rewrites it): they pass,
 * anything new fails. Shrink that file as the old ones are fixed; never grow it to let a new one in.
 * Type-only imports count: a type that points up is as much a dependency as a value.
 */

import { layerModules, SERVER_LAYERS } from './scripts/server-layers.mjs';

/** Tests and the machinery only tests use: free to import anything, never imported by product code. */
const TEST_CODE = ['\\.test\\.tsx?$', '^src/web/test-(utils|setup)\\.tsx?$', '^(test|e2e|bench)/'];

/** For each layer and each layer above it, a rule: nothing of the one imports the other. */
const layerRules = SERVER_LAYERS.flatMap((layer, i) =>
  SERVER_LAYERS.slice(i + 1).map((above) => {
    const from = layerModules(layer);
    return {
      name: `server-${layer.name}-below-${above.name}`,
      severity: 'error',
      comment: `${layer.name} sits below ${above.name} (scripts/server-layers.mjs): ${above.name} imports ${layer.name}, never the reverse.`,
      from: { path: from.path, pathNot: [...from.pathNot, ...TEST_CODE] },
      to: layerModules(above),
    };
  }),
);

export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'A file cycle: move what both sides need below both, or name it as an interface on the lower side.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'contract-imports-no-app',
      severity: 'error',
      comment: 'src/contract is the bottom: the server and the web app import it, not the reverse.',
      from: { path: '^src/contract/', pathNot: TEST_CODE },
      to: { path: ['^src/(server|web)/'] },
    },
    {
      name: 'web-not-server',
      severity: 'error',
      comment: 'The web app reaches the server over HTTP only (src/contract for the types).',
      from: { path: '^src/web/' },
      to: { path: '^src/server/' },
    },
    {
      name: 'server-not-web',
      severity: 'error',
      comment: 'The server serves the built web app as files; it never imports its code.',
      from: { path: '^src/server/' },
      to: { path: '^src/web/' },
    },
    {
      name: 'product-not-tests',
      severity: 'error',
      comment: 'Product code never depends on tests, their support, end-to-end specs or benchmarks.',
      from: { path: '^src/', pathNot: TEST_CODE },
      to: { path: TEST_CODE },
    },
    {
      name: 'tests-share-only-test-support',
      severity: 'error',
      comment: 'test/support serves every test; a tier of test/ (security, faults…) is its own.',
      from: { path: '^(test/[^/]+/|[^/]+/)' },
      to: { path: '^test/', pathNot: ['^test/support/', '^$1'] },
    },
    {
      name: 'web-ui-is-shared',
      severity: 'error',
      comment: 'web/ui and web/admin/ui are shared components: screens import them, not the reverse.',
      from: { path: ['^src/web/ui/', '^src/web/admin/ui/'], pathNot: TEST_CODE },
      to: { path: ['^src/web/(app|student|player)/', '^src/web/admin/(?!ui/)'] },
    },
    {
      name: 'web-app-is-the-top',
      severity: 'error',
      comment:
        'web/app (router, layouts, theme) imports the screens; only main.tsx imports it. What screens share with it (the gates, navigation) lives in web/session.',
      from: { path: '^src/web/', pathNot: ['^src/web/app/', '^src/web/main\\.tsx$', ...TEST_CODE] },
      to: { path: '^src/web/app/' },
    },
    ...layerRules,
  ],
  options: {
    // Type-only imports are dependencies too.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: ['node_modules'] },
    exclude: { path: ['node_modules'] },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.d.ts', '.json'],
    },
  },
};
