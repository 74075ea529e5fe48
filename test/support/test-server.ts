import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { hashPassword } from '../../src/server/accounts/passwords';
import { createInstructor } from '../../src/server/accounts/instructors';
import { buildApp, type AppOptions } from '../../src/server/app';
import { FakeClock } from '../../src/server/clock';
import { factorStore } from '../../src/server/mfa/factors';
import { holdFactor, PERIOD_MS } from './admin-factor';
import { loadConfig } from '../../src/server/config';
import type { AppContext } from '../../src/server/context';
import { users } from '../../src/server/db/schema';
import { openRuntime, type Runtime } from '../../src/server/runtime';
import { createTestDatabase, type TestDatabase } from './databases';
import { TestClient } from './http-client';
import { setupLinkToken } from './setup-link';
import { TestSmtpServer } from './smtp';
import { fetchTrusting } from './tls';
import { freePort } from './processes';

/** Fixture passwords' argon2id hashes (TestServer.insertFixtureUser). */
const fixtureHashes = new Map<string, Promise<string>>();

/** 13:30 in Asia/Kolkata: inside the default opening hours. */
export const OPEN_TIME = '2026-03-02T08:00:00.000Z';

export interface TestServerOptions {
  engine: 'pglite' | 'postgres';
  /** Extra environment for loadConfig (e.g. OPEN_HOURS). */
  env?: Record<string, string>;
  now?: string;
  app?: AppOptions;
  /** PUBLIC_URL names this server itself (a free port chosen first): for links a client follows back. */
  selfPublicUrl?: boolean;
}

export interface TestStudent {
  id: string;
  username: string;
  email: string;
  rollno: string;
  password: string;
}

/** The real app over real HTTP on a fresh database, with a real SMTP server and a fake clock. */
export class TestServer {
  private constructor(
    readonly app: FastifyInstance,
    readonly ctx: AppContext,
    readonly smtp: TestSmtpServer,
    readonly clock: FakeClock,
    private readonly runtime: Runtime,
    private readonly database: TestDatabase,
    readonly dataDir: string,
  ) {}

  static async start(options: TestServerOptions): Promise<TestServer> {
    const database = await createTestDatabase(options.engine);
    const smtp = await new TestSmtpServer().start();
    const dataDir = await mkdtemp(path.join(tmpdir(), 'lectern-test-'));
    const clock = new FakeClock(options.now ?? OPEN_TIME);
    const port = options.selfPublicUrl ? await freePort() : 0;
    const config = loadConfig({
      ...(port && { PUBLIC_URL: `http://127.0.0.1:${port}` }),
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      SMTP_URL: smtp.url,
      LOG_LEVEL: 'silent',
      ...options.env,
    });
    const runtime = await openRuntime(config, { clock, databaseImage: database.image });
    const app = await buildApp(runtime.ctx, { checkResponses: true, ...options.app });
    await app.listen({ port, host: '127.0.0.1' });
    return new TestServer(app, runtime.ctx, smtp, clock, runtime, database, dataDir);
  }

  get url(): string {
    const scheme = this.ctx.config.tls ? 'https' : 'http';
    return `${scheme}://127.0.0.1:${(this.app.server.address() as AddressInfo).port}`;
  }

  client(): TestClient {
    const tls = this.ctx.config.tls;
    // The test certificate is self-signed: it is its own authority.
    const client = new TestClient(this.url, tls ? fetchTrusting(tls.cert) : fetch);
    // Second-factor codes are for the server's (fake) clock, which moves only when a test moves it.
    client.serverNow = () => this.clock.now();
    client.realClock = false;
    // A suite signing one admin in more than twelve times on a still clock renews its codes.
    client.moreRecoveryCodes = async (username) => {
      const [admin] = await this.ctx.db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.username, username.toLowerCase()));
      if (!admin) return [];
      return factorStore(this.ctx.db, this.ctx.signingKey).newRecoveryCodes(admin.id, this.clock.now());
    };
    return client;
  }

  private counter = 0;

  /** A student straight from the admin's hands: first login still pending. */
  async createStudent(overrides: Partial<TestStudent> = {}): Promise<TestStudent> {
    const n = ++this.counter;
    const password = overrides.password ?? 'Initial@123';
    const student = await this.insertFixtureUser(
      {
        role: 'student',
        rollno: overrides.rollno ?? `R${String(n).padStart(3, '0')}`,
        name: `Student ${n}`,
        email: overrides.email ?? `student${n}@example.test`,
        username: overrides.username ?? `student${n}`,
        firstLogin: true,
      },
      password,
    );
    return {
      id: student.id,
      username: student.username,
      email: student.email,
      rollno: student.rollno!,
      password,
    };
  }

  /**
   * A fixture's account row, its password hashed once per password and worker: fixture students and
   * admins are a test's setup, not its subject (the admin's screens and the CLI create them through
   * accounts/users.ts in their own tests), and the Vitest tier made 900 of them, about 15
   * CPU-seconds of argon2id. Every sign-in still verifies a real argon2id hash of the password.
   */
  private async insertFixtureUser(values: Omit<typeof users.$inferInsert, 'passwordHash'>, password: string) {
    let passwordHash = fixtureHashes.get(password);
    if (!passwordHash) fixtureHashes.set(password, (passwordHash = hashPassword(password)));
    const [row] = await this.ctx.db
      .insert(users)
      .values({ ...values, passwordHash: await passwordHash })
      .returning();
    return row!;
  }

  /** A student who has already reset their password. */
  async createActiveStudent(overrides: Partial<TestStudent> = {}): Promise<TestStudent> {
    const student = await this.createStudent(overrides);
    await this.ctx.db.update(users).set({ firstLogin: false }).where(eq(users.id, student.id));
    return student;
  }

  async createAdmin(password = 'Admin@12345'): Promise<{ id: string; username: string; password: string }> {
    const n = ++this.counter;
    const admin = await this.insertFixtureUser(
      {
        role: 'admin',
        username: `admin${n}`,
        email: `admin${n}@example.test`,
        name: `admin${n}`,
        firstLogin: false,
      },
      password,
    );
    await this.enrolFactor(admin);
    return { id: admin.id, username: admin.username, password };
  }

  /**
   * Gives the admin a confirmed TOTP factor and recovery codes through the real factor store (as
   * the enrolment screen would), and hands its secret to test/support/admin-factor.ts, so every
   * sign-in of this admin takes the real second step with a code otplib computes.
   */
  async enrolFactor(admin: { id: string; username: string }): Promise<string> {
    const factors = factorStore(this.ctx.db, this.ctx.signingKey);
    const now = this.clock.now();
    const secret = (await factors.begin(admin.id, now))!;
    // Confirmed at an earlier step, so the current step and the next are still free for sign-ins.
    const lastStep = Math.floor(now.getTime() / PERIOD_MS) - 2;
    await factors.takeStep(admin.id, lastStep, now, { confirm: true });
    const recoveryCodes = await factors.newRecoveryCodes(admin.id, now);
    holdFactor(this.url, admin.username, { secret, recoveryCodes, lastStep });
    return secret;
  }

  /**
   * A client signed in as a new instructor teaching `courseIds`, with the same second factor admins
   * take (the real second step at sign-in).
   */
  async instructorClient(
    courseIds: string[],
    password = 'Tutor@12345',
  ): Promise<{ client: TestClient; instructor: { id: string; username: string; email: string } }> {
    const n = ++this.counter;
    const email = `tutor${n}@example.test`;
    const before = this.smtp.mails.length;
    const { created } = await createInstructor(this.ctx, { username: `tutor${n}`, email, courseIds }, 'cli');
    await this.openSetupLink(email, password, before);
    await this.enrolFactor(created);
    const client = this.client();
    const res = await client.adminLogin({ username: created.username, password });
    if (res.status !== 200)
      throw new Error(`instructor sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
    client.staySignedInAs = { username: created.username, password };
    return { client, instructor: { id: created.id, username: created.username, email: created.email } };
  }

  /**
   * Opens the set-up link mailed to `email` (after the first `before` mails) as its owner does:
   * POST /api/admin/setup with the token and `password`. Answers that response.
   */
  async openSetupLink(email: string, password: string, before = 0) {
    const token = setupLinkToken((await this.smtp.waitFor(email, before)).text);
    const res = await this.client().post('/api/admin/setup', { token, newPassword: password });
    if (res.status !== 200) throw new Error(`set-up link refused: ${res.status} ${JSON.stringify(res.body)}`);
    return res;
  }

  /** A client signed in as a fully active student. */
  async studentClient(student?: TestStudent): Promise<{ client: TestClient; student: TestStudent }> {
    const s = student ?? (await this.createActiveStudent());
    const client = this.client();
    const res = await client.signIn(s);
    if (res.status !== 200)
      throw new Error(`student sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
    return { client, student: s };
  }

  /**
   * A client signed in as a new admin; unless `staySignedIn` is false, it signs in again when a test
   * moved the clock past the admin session's idle or absolute end (a test of those ends says false).
   */
  async adminClient({ staySignedIn = true }: { staySignedIn?: boolean } = {}): Promise<{
    client: TestClient;
    admin: { id: string; username: string };
  }> {
    const admin = await this.createAdmin();
    const client = this.client();
    const res = await client.adminLogin(admin);
    if (res.status !== 200)
      throw new Error(`admin sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
    if (staySignedIn) client.staySignedInAs = { username: admin.username, password: admin.password };
    return { client, admin };
  }

  async close(): Promise<void> {
    await this.app.close();
    await this.runtime.close();
    await this.smtp.stop();
    await this.database.drop();
    await rm(this.dataDir, { recursive: true, force: true });
  }
}

/**
 * What a describe block's beforeAll makes, usable by name before it exists: a stand-in that forwards
 * to the value once `set` (so a suite reads `server.client()`, not `env.server.client()`).
 */
export function later<T extends object>(what: string): T & { set(value: T): void } {
  let real: T | undefined;
  return new Proxy({} as T & { set(value: T): void }, {
    get(_, key) {
      if (key === 'set') return (value: T) => void (real = value);
      if (!real) throw new Error(`${what} is made in beforeAll; use it inside a test or hook`);
      const value = Reflect.get(real, key, real) as unknown;
      return typeof value === 'function' ? value.bind(real) : value;
    },
  });
}

/** A TestServer for the enclosing describe block: started before its tests, closed after them. */
export function suiteServer(options: TestServerOptions): TestServer {
  const server = later<TestServer>('The suite server');
  beforeAll(async () => server.set(await TestServer.start(options)));
  afterAll(() => server.close());
  return server;
}

/** A client signed in as a new admin of a suite server (made in beforeAll); `id` is the admin's. */
export function suiteAdmin(server: TestServer): TestClient & { id: string } {
  const admin = later<TestClient & { id: string }>('The suite admin');
  beforeAll(async () => {
    const signedIn = await server.adminClient();
    admin.set(Object.assign(signedIn.client, { id: signedIn.admin.id }));
  });
  return admin;
}
