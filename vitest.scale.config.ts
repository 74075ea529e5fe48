import { defineConfig } from 'vitest/config';

/** `npm run test:scale`: the scale-out test (src/server/scale), kept out of `npm test`'s projects. */
export default defineConfig({
  test: {
    name: 'scale',
    environment: 'node',
    include: ['src/server/scale/**/*.scale.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
