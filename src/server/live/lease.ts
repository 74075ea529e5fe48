import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { liveIngests } from '../db/schema';

/** How long a class's ingest lease lasts unless its holder renews it. */
export const LIVE_LEASE_MS = 15_000;

/**
 * One node's hold on classes' ingest (docs/LIVE.md "Several nodes"): a row per class in
 * `live_ingests` naming the holder and when its lease ends. The holder renews it while it ingests;
 * another node takes the class once the lease has passed (the holder died or lost the database).
 * Times are the database's own (`now()`), so the nodes' clocks never disagree about an expiry.
 */
export class IngestLeases {
  /** This process's id in the rows (a new one at every start: a restarted node takes its classes back like any other). */
  readonly holder = randomUUID();

  constructor(
    private readonly db: Db,
    private readonly leaseMs = LIVE_LEASE_MS,
  ) {}

  /** Takes or renews the lease on `classId`: true when this node holds it now. */
  async hold(classId: string): Promise<boolean> {
    const until = sql`now() + make_interval(secs => ${this.leaseMs / 1000})`;
    const rows = await this.db
      .insert(liveIngests)
      .values({ classId, holder: this.holder, leaseUntil: until, updatedAt: sql`now()` })
      .onConflictDoUpdate({
        target: liveIngests.classId,
        set: { holder: this.holder, leaseUntil: until, updatedAt: sql`now()` },
        setWhere: sql`${liveIngests.holder} is null or ${liveIngests.holder} = ${this.holder} or ${liveIngests.leaseUntil} < now()`,
      })
      .returning({ classId: liveIngests.classId });
    return rows.length > 0;
  }

  /** Lets go of `classId` (the class ended, or this node stops): another node may take it at once. */
  async release(classId: string): Promise<void> {
    await this.db
      .update(liveIngests)
      .set({ holder: null, leaseUntil: null, updatedAt: sql`now()` })
      .where(and(eq(liveIngests.classId, classId), eq(liveIngests.holder, this.holder)));
  }
}
