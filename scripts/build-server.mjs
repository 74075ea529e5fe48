// `npm run build:server`: the server's entry points into dist/server (scripts/server-bundle.mjs).
import { rm } from 'node:fs/promises';
import { bundleServerEntries } from './server-bundle.mjs';

await rm('dist/server', { recursive: true, force: true });
await bundleServerEntries(['main', 'cli'], 'dist/server', { sourcemap: true });
