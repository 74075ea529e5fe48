import { Redis } from 'ioredis';
import { describe, it } from 'vitest';

/**
 * `describe` for tests that need something this machine may lack (PostgreSQL's server binaries, a
 * loop device, Redis, nginx). `missing` is the reason they cannot run, or undefined when they can.
 * Locally the tests are skipped and the reason is printed; in CI (`CI=true`) they fail with it, so
 * a machine that lost a service cannot pass by skipping.
 */
export function describeWhenReady(name: string, missing: string | undefined, tests: () => void): void {
  if (missing === undefined) {
    describe(name, tests);
  } else if (process.env.CI) {
    describe(name, () => {
      it(`precondition: ${missing}`, () => {
        throw new Error(`${name} cannot run in CI: ${missing}`);
      });
    });
  } else {
    console.warn(`[skipped] ${name}: ${missing}`);
    describe.skip(name, tests);
  }
}

/** Why Redis at 127.0.0.1:6379 cannot be used, or undefined when it answers. */
export async function redisMissing(): Promise<string | undefined> {
  const probe = new Redis('redis://127.0.0.1:6379', {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  try {
    await probe.connect();
    await probe.ping();
    return undefined;
  } catch (error) {
    return `no Redis at 127.0.0.1:6379 (${error instanceof Error ? error.message : String(error)})`;
  } finally {
    probe.disconnect();
  }
}
