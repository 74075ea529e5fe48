import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** Product code never imports test machinery or benchmarks (tests beside it may). */
const NO_TESTS = { group: ['**/test/**', '**/bench/**'], message: 'src/ must not import test/ or bench/.' };

const NO_WEB = { group: ['**/web/**'], message: 'The server does not import the web app.' };

/** Server folders and modules above the core (db, mail, config, clock, errors). */
const SERVER_ABOVE_CORE = [
  'accounts', 'audit', 'courses', 'videos', 'students', 'progress', 'thumbnails', 'media', 'jobs', 'http', 'health', 'metrics',
].flatMap((dir) => [dir, `${dir}/**`]).concat(['app', 'main', 'cli', 'runtime', 'demo-seed', 'context']); // prettier-ignore

/** An import restriction for product files (tests beside them excepted); flat config does not merge rule options. */
const layer = (files, patterns) => ({
  files: [files],
  ignores: ['**/*.test.{ts,tsx}'],
  rules: { 'no-restricted-imports': ['error', { patterns: [NO_TESTS, ...patterns] }] },
});

export default tseslint.config(
  {
    ignores: [
      'dist',
      'data',
      'node_modules',
      'test-results',
      'playwright-report',
      'drizzle',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Tests read loosely typed JSON bodies; `any` there is the honest type.
    files: ['**/*.test.{ts,tsx}', 'test/**', 'e2e/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  // Layers (docs/ARCHITECTURE.md): contract <- server | web; in the server, db and the core modules
  // <- the domains <- the app. Product code never depends on test machinery or benchmarks.
  layer('src/**/*.{ts,tsx}', []),
  layer('src/contract/**/*.ts', [
    {
      group: ['**/server/**', '**/web/**'],
      message: 'src/contract is the bottom layer: server and web import it, not the reverse.',
    },
  ]),
  layer('src/web/**/*.{ts,tsx}', [
    {
      group: ['**/server/**'],
      message: 'The web app reaches the server over HTTP only (src/contract for types).',
    },
  ]),
  layer('src/server/**/*.ts', [NO_WEB]),
  layer('src/server/{db,mail}/**/*.ts', [
    NO_WEB,
    {
      group: SERVER_ABOVE_CORE.map((dir) => `../${dir}`),
      message: 'db and mail sit below the domains: a domain imports them, not the reverse.',
    },
  ]),
  layer('src/server/{config,clock,errors,signing-key}.ts', [
    NO_WEB,
    { group: SERVER_ABOVE_CORE.map((dir) => `./${dir}`), message: 'Core modules sit below the domains.' },
  ]),
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
);
