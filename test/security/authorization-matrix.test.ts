import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs, expected, leakIn, othersData, storedJson, type MatrixState, type Row } from './matrix-kit';
import {
  adminApiRows,
  adminVideoRows,
  probeRows,
  signOutRows,
  studentApiRows,
  traceRunRows,
} from './matrix-rows-api';
import { learningRows } from './matrix-rows-learning';
import { checkpointRows } from './matrix-rows-checkpoints';
import { liveRows } from './matrix-rows-live';
import { certificateRows } from './matrix-rows-certificates';
import { deleteRows, playbackRows, uploadRows } from './matrix-rows-stream';
import {
  captionRows,
  deleteOwnRows,
  moveRows,
  otherCourseRows,
  playbackSessionRows,
  unknownIdRows,
} from './matrix-rows-scope';
import { routes, type RouteKey } from '../../src/contract/routes';
import { FRESH_FACTOR_SECONDS } from '../../src/contract/constants';
import { serverMessages } from '../../src/contract/messages';
import { defaultCases, keeps, type Promised } from './matrix-defaults';
import { INSTRUCTOR_RIGHTS, instructorRight, SCOPED_ROUTES } from './instructor-rights';
import { buildWorld, ROLES, type Role, type World } from './world';

/**
 * Hand-written cases beyond the defaults the table gives every route (matrix-defaults.ts): real ids,
 * real answers and leak checks, in the order the matrix calls them (later rows use what earlier ones
 * made).
 */
const MATRIX: Row[] = [
  ...studentApiRows,
  ...adminApiRows,
  ...learningRows,
  ...checkpointRows,
  ...liveRows,
  ...certificateRows,
  ...captionRows,
  ...playbackSessionRows,
  ...otherCourseRows,
  ...deleteOwnRows,
  ...unknownIdRows,
  ...traceRunRows,
  ...uploadRows,
  ...adminVideoRows,
  ...moveRows,
  ...playbackRows,
  ...deleteRows,
  ...probeRows,
  ...signOutRows,
];

/**
 * The sensitive admin routes (issue 27, docs/SECURITY.md V7): a second factor proven within 10
 * minutes before each. Restore, backup settings and creating an admin have no route (command line
 * and environment only). A route added to or taken from this list is a security decision: say so here.
 */
const FRESH_FACTOR_ROUTES: RouteKey[] = [
  'POST /api/admin/password',
  'POST /api/admin/mfa/recovery-codes',
  'POST /api/admin/students/:studentId/password',
  'POST /api/admin/backups',
  'GET /api/admin/trace/:code',
  'POST /api/admin/trace-runs',
  // Every change to how a staff member signs in (issue 37): a stolen session alone changes nothing.
  // Adding a passkey (both steps), removing one, setting up the app beside passkeys (both steps: the
  // first factor is set up at the `enrol` step, which has none to prove), and signing the others out.
  'POST /api/admin/passkeys/registration',
  'POST /api/admin/passkeys',
  'DELETE /api/admin/passkeys/:passkeyId',
  'POST /api/admin/mfa/enrolment',
  'POST /api/admin/mfa/enrol',
  'POST /api/admin/sessions/end-others',
  // Instructors: who else may upload and edit lectures, and see students.
  'POST /api/admin/instructors',
  'POST /api/admin/instructors/:userId/courses',
  'DELETE /api/admin/instructors/:userId',
];

const STUDENT_ROLES = new Set(['student', 'firstLogin', 'otherCourse', 'revoked']);

/**
 * Staff routes an instructor of another course still gets 200 from: lists, filtered to their own
 * courses (the rows check that nothing of course A is in them), and uploads, which belong to no
 * course until they are named. On every other 'courses' route, another course's row is refused
 * (403, or 404 once an earlier row deleted it).
 */
const OPEN_TO_OTHER_INSTRUCTORS: RouteKey[] = [
  'GET /api/admin/course/dashboard',
  'GET /api/admin/course/list',
  'GET /api/admin/video/courses',
  'GET /api/admin/video/editlist',
  'GET /api/admin/getvideolist',
  'GET /api/admin/students',
  'GET /api/admin/questions',
  'GET /api/admin/search',
  'GET /api/admin/live-classes',
  'POST /stream/upload-chunk',
  'GET /stream/upload-status',
  'POST /stream/upload',
];

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

  it("states every staff route's instructor right as written out here, and gives the two instructors what it says", () => {
    const failures: string[] = [];
    for (const [route, entry] of Object.entries(routes)) {
      const staff = entry.auth === 'admin' || entry.auth === 'admin-signin';
      const written = INSTRUCTOR_RIGHTS.get(route);
      if (!staff && ('instructor' in entry || written))
        failures.push(`${route}: an instructor right on a non-staff route`);
      if (staff && (!('instructor' in entry) || entry.instructor !== written))
        failures.push(
          `${route}: instructor right ${'instructor' in entry ? entry.instructor : 'missing'} in the route table, ${written ?? 'none'} written out in instructor-rights.ts`,
        );
    }
    for (const route of INSTRUCTOR_RIGHTS.keys())
      if (!(route in routes)) failures.push(`${route}: in instructor-rights.ts, not in the route table`);
    for (const row of MATRIX) {
      const entry = routes[row.route as RouteKey];
      if (!entry || (entry.auth !== 'admin' && entry.auth !== 'admin-signin')) continue;
      const right = instructorRight(row.route);
      for (const testCase of row.cases) {
        const label = testCase.name ? `${row.route} (${testCase.name})` : row.route;
        const admin = testCase.expect.admin;
        const mine = expected(row.route, testCase.expect, 'instructorOfThisCourse');
        const other = expected(row.route, testCase.expect, 'instructorOfAnotherCourse');
        if (right === 'none' && (mine !== 403 || other !== 403))
          failures.push(`${label}: admins only, yet the instructors get ${mine} and ${other}`);
        if (right === 'own' && (mine !== admin || other !== admin))
          failures.push(
            `${label}: their own account, yet the instructors get ${mine} and ${other}, the admin ${admin}`,
          );
        if (right === 'courses') {
          // Written out, the instructor's column may differ on purpose (a move into a course they do not teach).
          if (testCase.expect.instructorOfThisCourse === undefined && (mine === 403) !== (admin === 403))
            failures.push(`${label}: the instructor of its course gets ${mine}, the admin ${admin}`);
          if (other < 400 && !OPEN_TO_OTHER_INSTRUCTORS.includes(row.route as RouteKey))
            failures.push(`${label}: the instructor of another course gets ${other}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("checks the ids of every scoped staff route as written out here, with cases on a resource of the instructor's course and on nothing", () => {
    const failures: string[] = [];
    const sorted = (scope: object | undefined) => JSON.stringify(scope && Object.entries(scope).sort());
    for (const [route, entry] of Object.entries(routes)) {
      const declared = 'scope' in entry ? entry.scope : undefined;
      if (sorted(declared) !== sorted(SCOPED_ROUTES.get(route)))
        failures.push(
          `${route}: scope ${sorted(declared)} in the route table, ${sorted(SCOPED_ROUTES.get(route))} in instructor-rights.ts`,
        );
    }
    for (const route of SCOPED_ROUTES.keys()) {
      const cases = MATRIX.filter((row) => row.route === route).flatMap((row) => row.cases);
      for (const { name, expect: wanted } of cases)
        if (wanted.instructorOfThisCourse === undefined || wanted.instructorOfAnotherCourse === undefined)
          failures.push(`${route} (${name ?? 'its case'}): write out what both instructors get`);
      // The instructor of the resource's course gets past the scope (whatever the handler answers then), the other 403.
      const theirs = cases.some(
        ({ expect: e }) =>
          e.instructorOfAnotherCourse === 403 && e.instructorOfThisCourse !== 403 && e.admin !== 403,
      );
      const nothing = cases.some(
        ({ expect: e }) =>
          e.admin === 404 && e.instructorOfThisCourse === 404 && e.instructorOfAnotherCourse === 404,
      );
      if (!theirs) failures.push(`${route}: no case on a resource of one instructor's course only`);
      if (!nothing) failures.push(`${route}: no case on an id that names nothing`);
    }
    expect(failures).toEqual([]);
  });

  it('answers every route of the table as its auth level says: signed out 401, other roles 403', async () => {
    const failures: string[] = [];
    for (const { route, call, expect: promised } of defaultCases()) {
      for (const [role, wanted] of Object.entries(promised) as [Role, Promised][]) {
        for (const method of call.method === 'GET' ? ['GET', 'HEAD'] : [call.method]) {
          const reply = await callAs(world, role, { ...call, method });
          if (!keeps(wanted, reply.status))
            failures.push(`${method} ${route} as ${role}: ${reply.status}, expected ${wanted}`);
          const stored = storedJson(reply);
          if (stored) failures.push(`${method} ${route} as ${role}: ${stored}`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 60_000);

  it("answers every route as the table says for every role, never shows a student someone else's data, and lets no JSON be stored", async () => {
    const state: MatrixState = { playback: {} };
    const failures: string[] = [];
    for (const row of MATRIX) {
      for (const testCase of row.cases) {
        const label = testCase.name ? `${row.route} (${testCase.name})` : row.route;
        for (const role of ROLES) {
          const call = await testCase.request(world, role, state);
          const reply = await callAs(world, role, call);
          const wanted = expected(row.route, testCase.expect, role);
          if (reply.status !== wanted) {
            failures.push(
              `${label} as ${role}: ${reply.status}, expected ${wanted} ${reply.text.slice(0, 200)}`,
            );
            continue;
          }
          const stored = storedJson(reply);
          if (stored) failures.push(`${label} as ${role}: ${stored}`);
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

  // Last: it moves the server's clock past the fresh minutes (the rows above ended every session).
  it('wants the second factor proven within 10 minutes on the sensitive admin routes (and only there)', async () => {
    const fresh = (Object.keys(routes) as RouteKey[]).filter((key) => 'freshFactor' in routes[key]);
    expect(fresh.sort()).toEqual([...FRESH_FACTOR_ROUTES].sort());
    const server = world.media.server;
    const { client } = await server.adminClient({ staySignedIn: false });
    server.clock.advance((FRESH_FACTOR_SECONDS + 60) * 1000);
    const stale = { url: world.url, tokens: { ...world.tokens, admin: client.token } };
    const cases = defaultCases().filter(({ route }) => FRESH_FACTOR_ROUTES.includes(route));
    expect(cases).toHaveLength(FRESH_FACTOR_ROUTES.length);
    const failures: string[] = [];
    for (const { route, call } of cases) {
      const reply = await callAs(stale, 'admin', call);
      if (reply.status !== 403 || reply.json?.message !== serverMessages.mfaFreshFactor)
        failures.push(`${route} with a stale factor: ${reply.status} ${reply.text.slice(0, 200)}`);
    }
    // The session itself is fine: other admin routes answer, and say the factor is not fresh.
    expect((await client.get('/api/admin/mfa')).body).toMatchObject({ enrolled: true, freshUntil: null });
    expect((await client.get('/api/admin/backups')).status).toBe(200);
    // A code proves it again: the harmless requests (refused by their schema or naming nothing) pass the guard.
    expect((await client.proveFactor()).status).toBe(200);
    for (const { route, call, expect: promised } of cases) {
      if (promised.admin !== 'past the guard') continue;
      const reply = await callAs(stale, 'admin', call);
      if (!keeps('past the guard', reply.status))
        failures.push(`${route} after the code: ${reply.status} ${reply.text.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
  });
});
