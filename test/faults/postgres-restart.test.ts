import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createStudent } from '../../src/server/accounts/users';
import { openDatabase, type Database } from '../../src/server/db/client';
import { courses, enrollments, users } from '../../src/server/db/schema';
import { TestClient } from '../support/http-client';
import { startServerProcess, type ServerProcess } from '../support/processes';
import { describeWhenReady } from '../support/preconditions';
import { startPrivatePostgres, type PrivatePostgres } from '../support/private-postgres';

const ADMIN_PASSWORD = 'Restart@Admin1';
const STUDENT_PASSWORD = 'Restart@Pass1';

interface Sample {
  at: number;
  kind: string;
  status: number;
  ms: number;
  message: unknown;
}

type Phase = 'before' | 'down' | 'restarting' | 'after';

const setup = await startPrivatePostgres();
describeWhenReady('PostgreSQL restarted under load', 'skip' in setup ? setup.skip : undefined, () => {
  const pg = setup as PrivatePostgres;
  let dataDir = '';
  let server: ServerProcess | undefined;
  let seeder: Database | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'lectern-pgrestart-'));
    server = await startServerProcess({
      DATABASE_URL: pg.url(),
      DATA_DIR: dataDir,
      ADMIN_PASSWORD,
      OPEN_HOURS: 'always',
      SEED_DEMO: 'false',
    });
    // A student with a course, written straight to the database the server just migrated.
    seeder = await openDatabase({ url: pg.url(), dataDir, poolSize: 2 });
    // Pat browses; Sam keeps signing in (a student holds two sessions: Sam's sign-ins must not end Pat's).
    const [student] = [
      await createStudent(seeder.db, {
        rollno: 'PG001',
        name: 'Pat Restart',
        email: 'pat@example.test',
        username: 'pat',
        password: STUDENT_PASSWORD,
      }),
      await createStudent(seeder.db, {
        rollno: 'PG002',
        name: 'Sam Signer',
        email: 'sam@example.test',
        username: 'sam',
        password: STUDENT_PASSWORD,
      }),
    ];
    await seeder.db.update(users).set({ firstLogin: false }).where(eq(users.role, 'student'));
    const [course] = await seeder.db
      .insert(courses)
      .values({
        batch: 1,
        courseCode: 'PG1',
        name: 'Databases',
        description: 'd',
        startDate: '2026-01-01',
        endDate: '2030-12-31',
      })
      .returning({ id: courses.id });
    await seeder.db.insert(enrollments).values({
      courseId: course!.id,
      studentId: student.id,
      accessExpiration: new Date(Date.now() + 30 * 86_400_000),
    });
    await seeder.close();
    seeder = undefined;
  }, 120_000);

  afterAll(async () => {
    await seeder?.close().catch(() => {});
    await server?.stop('SIGKILL');
    await pg.destroy();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /** Six clients looping over what a cohort does all day, recording every answer with the phase it fell in. */
  function steadyLoad(base: string, admin: TestClient, student: TestClient) {
    const kinds: Record<string, () => Promise<{ status: number; body: unknown }>> = {
      'auth check': () => student.get('/api/auth/check'),
      courses: () => student.get('/api/courses'),
      'sign-in': () =>
        new TestClient(base).post('/api/signin', { username: 'sam', password: STUDENT_PASSWORD }),
      'admin dashboard': () => admin.get('/api/admin/course/dashboard'),
      'admin students': () => admin.get('/api/admin/students'),
    };
    const names = Object.keys(kinds);
    const samples: (Sample & { phase: Phase })[] = [];
    let phase: Phase = 'before';
    let running = true;
    const loop = async (offset: number) => {
      for (let i = offset; running; i++) {
        const kind = names[i % names.length]!;
        const started = performance.now();
        const res = await kinds[kind]!().catch((error: unknown) => ({ status: -1, body: String(error) }));
        const body = res.body as { message?: unknown } | undefined;
        samples.push({
          at: Date.now(),
          kind,
          status: res.status,
          ms: performance.now() - started,
          message: body?.message,
          phase,
        });
        if (res.status !== 200) await new Promise((r) => setTimeout(r, 20)); // a client backing off a little
      }
    };
    const loops = Array.from({ length: 6 }, (_, i) => loop(i));
    return {
      names,
      samples,
      enter(next: Phase) {
        phase = next;
      },
      async stop() {
        running = false;
        await Promise.all(loops);
      },
    };
  }

  const until = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it.each(['fast', 'immediate'] as const)(
    'answers 503 { message } while PostgreSQL is down (stop -m %s) and recovers without restarting Lectern',
    async (mode) => {
      const base = server!.url;
      const admin = new TestClient(base);
      expect((await admin.adminLogin({ username: 'admin', password: ADMIN_PASSWORD })).status).toBe(200);
      const student = new TestClient(base);
      expect(
        (await student.post('/api/signin', { username: 'pat', password: STUDENT_PASSWORD })).status,
      ).toBe(200);
      const load = steadyLoad(base, admin, student);

      await until(1_500);
      load.enter('down');
      await pg.stop(mode);
      const downAt = Date.now();
      await until(3_000);
      load.enter('restarting');
      await pg.start();
      const restartedAt = Date.now();
      let recoveredAt: number | undefined;
      while (Date.now() - restartedAt < 20_000) {
        const lastOfEach = load.names.map((n) =>
          load.samples.filter((s) => s.kind === n && s.at > restartedAt).at(-1),
        );
        if (lastOfEach.every((s) => s?.status === 200)) {
          recoveredAt = Date.now();
          break;
        }
        await until(50);
      }
      load.enter('after');
      await until(1_500);
      await load.stop();

      const summary = (list: Sample[]) => {
        const counts = new Map<string, number>();
        for (const s of list)
          counts.set(`${s.kind} ${s.status}`, (counts.get(`${s.kind} ${s.status}`) ?? 0) + 1);
        return Object.fromEntries([...counts].sort());
      };
      // Requests already past the database when it stopped may still succeed: judge from 300 ms in.
      const during = load.samples.filter((s) => s.phase === 'down' && s.at > downAt + 300);
      const after = load.samples.filter((s) => s.phase === 'after');
      console.log(`[faults] PostgreSQL down (-m ${mode}):`, summary(during));
      console.log(
        `[faults] recovered ${recoveredAt ? recoveredAt - restartedAt : 'never'} ms after the restart; then:`,
        summary(after),
      );

      expect(server!.child.exitCode, server!.output()).toBeNull();
      expect(
        load.samples.filter((s) => s.status === 500 || s.status < 0),
        server!.output(),
      ).toEqual([]);
      // While it is down: everything needing the database is a quick 503 with a message.
      expect(during.length).toBeGreaterThan(50);
      for (const s of during.filter((s) => s.status !== 200)) {
        expect(s.status).toBe(503);
        expect(typeof s.message).toBe('string');
      }
      for (const kind of ['auth check', 'courses', 'sign-in', 'admin students']) {
        expect(during.filter((s) => s.kind === kind).map((s) => s.status)).not.toContain(200);
      }
      expect(Math.max(...during.map((s) => s.ms))).toBeLessThan(6_000);
      // Afterwards the same process serves everything again, writes included.
      expect(recoveredAt).toBeDefined();
      expect(after.length).toBeGreaterThan(20);
      expect(after.filter((s) => s.status !== 200)).toEqual([]);
      const created = await admin.post('/api/admin/course/create', {
        batch: 2, coursecode: `PG-${mode}`, name: 'After the restart', description: 'written after recovery',
        startdate: '2026-01-01', enddate: '2026-12-31',
      }); // prettier-ignore
      expect(created.status).toBe(200);
    },
    60_000,
  );

  it('survives PostgreSQL dying while a transaction holds a connection between two statements', async () => {
    // pg emits 'error' on a checked-out client whose server goes away; with no listener that is an
    // uncaught exception, which would end this test process (and a Lectern process) on the spot.
    const database = await openDatabase({ url: pg.url(), dataDir, poolSize: 2 });
    try {
      const cut = database.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        await pg.stop('immediate');
        await until(300); // the socket's end arrives while no statement is running
        await tx.execute(sql`select 1`);
      });
      await expect(cut).rejects.toThrow();
      await pg.start();
      // The dead client left the pool; the next statement gets a fresh connection.
      let answered = false;
      for (let i = 0; i < 50 && !answered; i++) {
        answered = await database.db.execute(sql`select 1`).then(
          () => true,
          () => false,
        );
        if (!answered) await until(100);
      }
      expect(answered).toBe(true);
    } finally {
      await pg.start().catch(() => {}); // already running unless the test failed midway
      await database.close();
    }
  });
});
