import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../support/databases';
import { examplesFor, requestTo } from './fuzz-inputs';
import { FUZZ_ROLES, FuzzHarness } from './fuzz-harness';
import type { Call } from './matrix-kit';
import type { Role } from './world';

/**
 * Random requests per route and role, on top of a fixed set of hostile examples per route: a fixed
 * number of runs per route (not a time box, so a slow machine sends as many as a fast one and a
 * failure replays), FUZZ_RUNS for a long local hunt, FUZZ_SEED to replay a failure.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 16);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

const trapped: unknown[] = [];
const trap = (reason: unknown) => trapped.push(reason);
beforeAll(() => void process.on('unhandledRejection', trap));
afterAll(() => void process.off('unhandledRejection', trap));

/** A request in a line, for failure reports. */
function describeCall(call: Call): string {
  const body =
    call.json !== undefined
      ? JSON.stringify(call.json)
      : call.body !== undefined
        ? String(call.body)
        : call.form
          ? `multipart ${JSON.stringify([...call.form().entries()].map(([k, v]) => [k, typeof v === 'string' ? v : `<${v.size} bytes>`]))}`
          : '';
  return `${call.method} ${call.path.slice(0, 200)} ${JSON.stringify(call.headers ?? {})} ${body.slice(0, 300)}`;
}

/** The role the fixed examples are sent as: the one that gets furthest into the route. */
const deepestRole = (route: string): Role => (/ \/api\/(?!admin)/.test(route) ? 'student' : 'admin');

describe.each(testEngines())('fuzzing every route (%s)', (engine) => {
  // PostgreSQL gets a smaller share: the same code, a different engine's errors.
  const share = engine === 'pglite' ? 1 : 0.35;
  let harness: FuzzHarness;
  beforeAll(async () => {
    harness = await FuzzHarness.start(engine);
  }, 120_000);
  afterAll(() => harness?.world.media.close());

  it('answers no 5xx, leaves no unhandled rejection, and a refused request changes nothing', async () => {
    const routes = harness.routes();
    const failures: string[] = [];
    let examples = 0;
    let random = 0;
    const report = (failure: string) => {
      failures.push(failure);
      console.warn(`FUZZ FAILURE ${failure}`);
    };
    for (const route of routes) {
      for (const call of examplesFor(route, harness.pool)) {
        examples++;
        const failure = await harness.exercise(route, deepestRole(route), call);
        if (failure) report(`${route} example ${describeCall(call)}: ${failure}`);
      }
      const result = await fc.check(
        fc.asyncProperty(
          fc.constantFrom(...FUZZ_ROLES, 'admin'),
          requestTo(route, harness.pool),
          async (role, call) => {
            random++;
            const failure = await harness.exercise(route, role, call);
            if (failure) throw new Error(failure);
          },
        ),
        { numRuns: Math.ceil(RUNS * share), seed: SEED, endOnFailure: true },
      );
      if (result.failed) {
        const [role, call] = result.counterexample ?? [];
        report(
          `${route} as ${role} (seed ${result.seed}): ${String(result.errorInstance)}\n  ${call ? describeCall(call) : ''}`,
        );
      }
    }
    console.info(
      `fuzz (${engine}): ${routes.length} routes, ${examples} examples and ${random} random requests, answers ${JSON.stringify(Object.fromEntries(harness.tally))}, ` +
        `never accepted: ${routes.filter((r) => !harness.accepted.has(r)).join(', ') || 'none'}`,
    );
    expect(failures).toEqual([]);
    expect(trapped).toEqual([]);
  }, 600_000);
});
