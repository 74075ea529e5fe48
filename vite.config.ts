import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { bundleMap } from './scripts/bundle-map.ts';

const server = process.env.LECTERN_DEV_API ?? 'http://127.0.0.1:3000';

export default defineConfig(({ command }) => ({
  root: 'src/web',
  // bundleMap: what each chunk is made of (dist/web/.vite/bundle-map.json), read by `npm run budget`.
  plugins: [react(), bundleMap()],
  resolve: {
    // React Router 7's package exports point every import at its development build (dev warnings
    // on, bigger: remix-run/react-router#14102); the build takes the production one it also ships.
    alias:
      command === 'build'
        ? [
            {
              find: /^react-router$/,
              replacement: fileURLToPath(
                new URL('node_modules/react-router/dist/production/index.mjs', import.meta.url),
              ),
            },
          ]
        : [],
  },
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    sourcemap: true,
    // bench/web.ts, the server's route preloads and `npm run budget` read which chunks each route needs.
    manifest: true,
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      // A zod schema built at the top of a contract module and never used in the browser is dropped:
      // a page importing a message or a helper from such a module does not pull zod in with it.
      treeshake: { manualPureFunctions: ['z'] },
      // Automatic splitting left ~25 chunks of 1-2 KiB behind each student page (Mantine's pieces
      // shared by a few routes): a phone over mobile data fetches them ~6 at a time, a round trip
      // each wave. Rolldown copies such small common chunks into the chunks that read them instead
      // (one module state across the copies, kept by its runtime): 2 more chunks on the dashboard
      // after the entry instead of 24, and fewer bytes. It needs entry signatures not preserved (an
      // app's entry exports nothing).
      preserveEntrySignatures: false,
      output: { codeSplitting: { experimentalInlineCommonChunks: { maxSize: 16 * 1024 } } },
    },
  },
  server: {
    proxy: { '/api': server, '/stream': server, '/thumbnails': server },
  },
}));
