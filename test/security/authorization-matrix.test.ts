import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs, leakIn, othersData, type MatrixState, type Row } from './matrix-kit';
import {
  adminApiRows,
  adminVideoRows,
  probeRows,
  signOutRows,
  studentApiRows,
  traceRunRows,
} from './matrix-rows-api';
import { deleteRows, playbackRows, uploadRows } from './matrix-rows-stream';
import { routes } from '../../src/contract/routes';
import { defaultCases, keeps, type Promised } from './matrix-defaults';
import { buildWorld, ROLES, type Role, type World } from './world';

/**
 * Hand-written cases beyond the defaults the table gives every route (matrix-defaults.ts): real ids,
 * real answers and leak checks, in the order the matrix calls them (later rows use what earlier ones
 * made).
 */
const MATRIX: Row[] = [
  ...studentApiRows,
  ...adminApiRows,
  ...traceRunRows,
  ...uploadRows,
  ...adminVideoRows,
  ...playbackRows,
  ...deleteRows,
  ...probeRows,
  ...signOutRows,
];

const STUDENT_ROLES = new Set(['student', 'firstLogin', 'otherCourse', 'revoked']);

// Authorization does not depend on the database engine: PGlite only.
describe('authorization matrix', () => {
  let world: World;
  beforeAll(async () => {
    world = await buildWorld({ engine: 'pglite' });
  }, 120_000);
  afterAll(() => world?.media.close());

  it('knows every route Fastify registered from the route table, and each hand-written row names one', () => {
    const registered = world.media.server.app.registeredRoutes;
    const gets = new Set(registered.filter((r) => r.method === 'GET').map((r) => r.url));
    // HEAD twins of GET routes run the GET handler: the matrix sends HEAD beside every GET case.
    const served = registered
      .filter((r) => !(r.method === 'HEAD' && gets.has(r.url)))
      .map((r) => `${r.method} ${r.url}`);
    expect([...new Set(served)].sort()).toEqual(Object.keys(routes).sort());
    expect(MATRIX.map((row) => row.route).filter((route) => !(route in routes))).toEqual([]);
    const unexplained = Object.entries(routes).filter(
      ([, entry]) => (entry.auth === 'public' || entry.auth === 'token') && !('why' in entry),
    );
    expect(unexplained.map(([route]) => route)).toEqual([]);
  });

  it('answers every route of the table as its auth level says: signed out 401, other roles 403', async () => {
    const failures: string[] = [];
    for (const { route, call, expect: promised } of defaultCases()) {
      for (const [role, wanted] of Object.entries(promised) as [Role, Promised][]) {
        for (const method of call.method === 'GET' ? ['GET', 'HEAD'] : [call.method]) {
          const reply = await callAs(world, role, { ...call, method });
          if (!keeps(wanted, reply.status))
            failures.push(`${method} ${route} as ${role}: ${reply.status}, expected ${wanted}`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 60_000);

  it("answers every route as the table says for every role, and never shows a student someone else's data", async () => {
    const state: MatrixState = { playback: {} };
    const failures: string[] = [];
    for (const row of MATRIX) {
      for (const testCase of row.cases) {
        const label = testCase.name ? `${row.route} (${testCase.name})` : row.route;
        for (const role of ROLES) {
          const call = await testCase.request(world, role, state);
          const reply = await callAs(world, role, call);
          const wanted = testCase.expect[role];
          if (reply.status !== wanted) {
            failures.push(
              `${label} as ${role}: ${reply.status}, expected ${wanted} ${reply.text.slice(0, 200)}`,
            );
            continue;
          }
          try {
            await testCase.check?.(reply, role, world, state);
          } catch (error) {
            failures.push(`${label} as ${role}: ${(error as Error).message}`);
          }
          if (STUDENT_ROLES.has(role)) {
            const leaked = leakIn(reply.text, othersData(world, role));
            if (leaked) failures.push(`${label} as ${role}: the answer contains "${leaked}" of someone else`);
          }
          if (call.method === 'GET') {
            const head = await callAs(world, role, { ...call, method: 'HEAD' });
            if (head.status !== wanted)
              failures.push(`HEAD ${label} as ${role}: ${head.status}, expected ${wanted}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    // The sign-out rows ended every session.
    for (const role of ROLES) {
      expect((await callAs(world, role, { method: 'GET', path: '/api/auth/check' })).json.valid, role).toBe(
        false,
      );
    }
  }, 120_000);
});
