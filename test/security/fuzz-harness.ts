import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { routes } from '../../src/contract/routes';
import { sessionStore } from '../../src/server/accounts/sessions';
import { insertFinalizedVideo } from '../support/course-fixtures';
import { makeClip } from '../support/media-kit';
import { users } from '../../src/server/db/schema';
import { callAs, playlistUris, type Call, type Reply } from './matrix-kit';
import { poolOf, type FuzzPool } from './fuzz-inputs';
import { describeChanges, takeSnapshot, type Allowed, type Snapshot } from './state-snapshot';
import { buildWorld, type Role, type World } from './world';

/** Roles the fuzzer sends requests as. */
export const FUZZ_ROLES = ['anonymous', 'student', 'admin'] as const satisfies readonly Role[];

/**
 * What a refused request may change, by route:
 * - a wrong one-time code counts toward the limit of five (that is the point of refusing it);
 * - a chunk at start 0 restarts its upload: the earlier partial bytes are dropped (by design, the
 *   client said it is sending the file anew) even when the new first chunk is then refused;
 */
export const MAY_CHANGE_WHEN_REFUSED: Record<string, Allowed> = {
  // - a refused sign-in or code is counted against the account's day and written to the audit log
  //   as a security event (accounts/account-budget.ts, audit/security-events.ts);
  'POST /api/signin': { tables: ['users', 'audit_events'] },
  'POST /api/admin/login': { tables: ['users', 'audit_events'] },
  // - a wrong second-factor code likewise (mfa/code-check.ts: the account's day of wrong codes);
  'POST /api/admin/login/totp': { tables: ['users', 'audit_events'] },
  'POST /api/admin/mfa/enrol': { tables: ['users', 'audit_events'] },
  'POST /api/admin/mfa/verify': { tables: ['users', 'audit_events'] },
  'POST /api/admin/password': { tables: ['audit_events'] },
  // - a refused passkey assertion likewise, and it uses up the session's pending challenge (single
  //   use); a refused registration uses up its challenge too (mfa/passkeys.ts);
  'POST /api/admin/login/passkey': { tables: ['users', 'audit_events', 'admin_passkey_challenges'] },
  'POST /api/admin/passkeys': { tables: ['admin_passkey_challenges'] },
  'POST /api/password/reset': { tables: ['one_time_codes', 'users', 'audit_events'] },
  'POST /stream/upload-chunk': {
    removals: { tables: ['uploads'], folders: [path.join('media', 'uploads')] },
  },
  // - keys asked for faster than a player does are refused (429) and written to the audit log as a
  //   suspected download; the pool's playback URLs (keys among them) go to every streamer route.
  ...Object.fromEntries(
    Object.keys(routes)
      .filter((route) => route.startsWith('GET /stream/videos/:id/'))
      .map((route) => [route, { tables: ['audit_events'] }]),
  ),
};

/** Routes that leave work running after they answer (not awaited on purpose: forgot-password mails a code). */
const LEAVES_WORK = new Set(['POST /api/password/forgot']);

/**
 * The fuzzed world: the matrix's school with its job runner stopped (nothing changes the database
 * but requests), real playback URLs in the value pool, and the state after the last request that
 * was allowed to change it.
 */
export class FuzzHarness {
  private baseline!: Snapshot;
  /** Requests sent, by status class (2xx, 4xx...). */
  readonly tally = new Map<string, number>();
  /** Routes that accepted at least one generated request (the fuzzer got past their checks). */
  readonly accepted = new Set<string>();

  private constructor(
    readonly world: World,
    readonly pool: FuzzPool,
  ) {}

  static async start(engine: 'pglite' | 'postgres'): Promise<FuzzHarness> {
    // FUZZ_LOG=error shows the server's own account of a 5xx.
    const world = await buildWorld({
      engine,
      env: process.env.FUZZ_LOG ? { LOG_LEVEL: process.env.FUZZ_LOG } : {},
    });
    await world.media.runner.idle();
    await world.media.runner.stop();
    const playback: string[] = [];
    for (const role of ['student', 'admin'] as const) {
      const master = await callAs(world, role, { method: 'GET', path: world.a1.url });
      const child = new URL(playlistUris(master.text)[0]!, new URL(world.a1.url, world.url));
      const list = await callAs(world, role, { method: 'GET', path: child.pathname + child.search });
      const uris = playlistUris(list.text).map((u) => new URL(u, child));
      playback.push(child.pathname + child.search, ...uris.map((u) => u.pathname + u.search));
    }
    // Videos the examples may delete (rows only: one through the admin API, one through the streamer).
    const doomed = await Promise.all([1, 2].map(() => insertFinalizedVideo(world.media.server)));
    // A marked video (a row with a forensic secret) gets trace uploads past their first check.
    const marked = await insertFinalizedVideo(world.media.server, {
      status: 'ready',
      forensicSecret: 'ab'.repeat(32),
    });
    const trace = { marked: marked.id, copy: await readFile(await makeClip({ seconds: 105 })) };
    const harness = new FuzzHarness(world, poolOf(world, playback, [doomed[0]!.id, doomed[1]!.id], trace));
    harness.baseline = await harness.snapshot();
    return harness;
  }

  /** Every route of the route table (the matrix checks it names every route Fastify registered). */
  routes(): string[] {
    return Object.keys(routes);
  }

  private snapshot(): Promise<Snapshot> {
    return takeSnapshot(this.world.media.server.ctx.db, this.world.media.server.dataDir);
  }

  /** Sends `call` as `role`; answers what went wrong (a 5xx, a dropped connection, a change by a refusal), if anything. */
  async exercise(route: string, role: Role, call: Call, retry = true): Promise<string | undefined> {
    let reply: Reply;
    try {
      reply = await callAs(this.world, role, call);
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const failure = `no answer: ${(error as Error).message} ${cause?.code ?? ''} ${cause?.message ?? ''}`;
      // The client may reuse a kept-alive socket the server is just closing (after a 413, say), or
      // still be writing a body the server refused before reading it (EPIPE: a query too long for
      // the parser, answered and closed): once, if the attempt changed nothing, that is the client's
      // race, not the route's fault.
      const race = ['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE'].includes(cause?.code ?? '');
      if (retry && race && !describeChanges(this.baseline, await this.snapshot()).length) {
        return this.exercise(route, role, call, false);
      }
      return failure;
    }
    const kind = `${String(reply.status)[0]}xx`;
    this.tally.set(kind, (this.tally.get(kind) ?? 0) + 1);
    if (reply.status >= 500) return `${reply.status} ${reply.text.slice(0, 300)}`;
    if (reply.status >= 400) {
      const after = await this.snapshot();
      const changes = describeChanges(this.baseline, after, MAY_CHANGE_WHEN_REFUSED[route]);
      this.baseline = after;
      if (changes.length)
        return `${reply.status} ${reply.text.slice(0, 200)}, yet it changed: ${changes.join('; ')}`;
      return undefined;
    }
    this.accepted.add(route);
    await this.keepSessions();
    this.baseline = await this.snapshot();
    // Until the state holds still for 100 ms (at most 3 s): the work lands before the next request.
    for (let i = 0; LEAVES_WORK.has(route) && i < 30; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const later = await this.snapshot();
      const settled = !describeChanges(this.baseline, later).length;
      this.baseline = later;
      if (settled && i > 0) break;
    }
    return undefined;
  }

  /** A successful sign-out, password reset or sign-in elsewhere may end a role's session: start a new one. */
  async keepSessions(): Promise<void> {
    const { ctx, clock } = this.world.media.server;
    const store = sessionStore(ctx.db);
    for (const role of ['student', 'admin'] as const) {
      const token = this.world.tokens[role];
      if (token && (await store.find(token, clock.now()))) continue;
      const id = role === 'admin' ? this.world.admin.id : this.world.people.student.id;
      const [user] = await ctx.db
        .select({ id: users.id, role: users.role })
        .from(users)
        .where(eq(users.id, id));
      this.world.tokens[role] = await store.create(user!, 'full', clock.now(), ctx.config.maxStudentSessions);
    }
  }
}
