import { hostname } from 'node:os';
import { and, eq, sql } from 'drizzle-orm';
import { hasRow } from '../db/has-row';
import { jobs } from '../db/schema';
import type { AppContext } from '../context';
import {
  claimJob,
  completeJob,
  enqueueJob,
  failJob,
  hasPendingJob,
  heartbeat,
  onEnqueue,
  releaseJob,
  requeueRunningJobs,
  type Job,
} from './queue';
import { isRetryLater, PermanentJobError, retryDelayOf, type JobHandlers, type JobType } from './types';

export interface RunnerOptions {
  concurrency?: number;
  pollMs?: number;
  /** A running job whose lock is older than this is taken to be orphaned by a dead worker. */
  staleMs?: number;
  heartbeatMs?: number;
  /**
   * At most this many jobs of a type run at once here. Long background work (the adaptive ladder)
   * gets fewer slots than `concurrency`, so a slot always stays free for short urgent jobs.
   */
  typeLimits?: Partial<Record<JobType, number>>;
  /**
   * Long background types (a ladder, an index, a trace, a recording, a backup): together they take
   * at most `concurrency - 1` slots. Each has its own lane of one, but two different ones would
   * otherwise fill both slots for many minutes, and a short job somebody waits for (a question's
   * frame, a first packaging) would wait behind them.
   */
  backgroundTypes?: readonly JobType[];
  /** The embedded database's longest wait between idle looks (IDLE_POLL_MS). */
  idlePollMs?: number;
}

/** A check the runner repeats (see `repeat`); it resolves true when it queued work. */
export interface ScheduledCheck {
  name: string;
  everyMs: number;
  check: () => Promise<boolean>;
}

/**
 * The longest an idle runner on the embedded database waits between looks at the queue. Only this
 * process writes that database and every enqueue here wakes the runner (`onEnqueue`), so an idle look
 * only finds work the clock made due (a retry's time, a schedule). An idle server looked twice a
 * second: a claim query in PGlite's WebAssembly each time, about 2% of a core doing nothing.
 */
const IDLE_POLL_MS = 4_000;

/** Pulls jobs from the database queue and runs them with the typed handler map. */
export class JobRunner {
  readonly worker = `${hostname()}:${process.pid}`;
  private readonly concurrency: number;
  private readonly pollMs: number;
  private readonly idlePollMs: number;
  private readonly staleMs: number;
  private readonly heartbeatMs: number;
  private readonly typeLimits: Partial<Record<JobType, number>>;
  private readonly backgroundTypes: ReadonlySet<string>;
  private readonly running = new Map<
    string,
    { type: string; controller: AbortController; done: Promise<void> }
  >();
  private readonly timers: NodeJS.Timeout[] = [];
  private stopped = true;
  private polling = false;
  /** A wake came while a poll ran: that poll may have looked before the new job was there. */
  private pollAgain = false;
  /** Polls in a row that found nothing to do (the embedded database's runner then waits longer). */
  private idlePolls = 0;
  private pollTimer: NodeJS.Timeout | undefined;
  private unlisten: (() => void) | undefined;

  constructor(
    private readonly ctx: AppContext,
    private readonly handlers: JobHandlers,
    options: RunnerOptions = {},
  ) {
    // Two slots for background work (backgroundTypes: a ladder and an index may run side by side),
    // one always free for what somebody waits on (a first packaging, a question's frame, a mail).
    this.concurrency = options.concurrency ?? 3;
    this.pollMs = options.pollMs ?? 500;
    this.idlePollMs = options.idlePollMs ?? IDLE_POLL_MS;
    this.staleMs = options.staleMs ?? 60_000;
    this.heartbeatMs = options.heartbeatMs ?? 15_000;
    this.typeLimits = options.typeLimits ?? {};
    this.backgroundTypes = new Set(options.backgroundTypes ?? []);
  }

  async start(): Promise<void> {
    this.stopped = false;
    if (this.ctx.dbKind === 'pglite') {
      // Only this process can open the embedded database, so anything "running" died with the last one.
      const requeued = await requeueRunningJobs(this.ctx.db, this.ctx.clock.now());
      if (requeued) this.ctx.logger.info({ requeued }, 'requeued jobs interrupted by the last shutdown');
    }
    this.unlisten ??= onEnqueue(() => this.wake());
    this.schedulePoll(0);
  }

  /** Enqueues `type` every `everyMs` unless one is already pending. */
  every(type: JobType, everyMs: number, payload: object = {}): void {
    const tick = async () => {
      if (this.stopped) return;
      try {
        if (!(await hasPendingJob(this.ctx.db, type))) await enqueueJob(this.ctx.db, type, payload as never);
      } catch (error) {
        this.ctx.logger.warn({ err: error, type }, 'could not schedule a recurring job');
      }
    };
    void tick();
    this.timers.push(setInterval(tick, everyMs).unref());
  }

  /**
   * Runs `check` now and every `everyMs`: for schedules that decide themselves whether work is due
   * (the daily backup). Every node runs its checks; the check must enqueue at most once across them.
   */
  repeat({ name, everyMs, check }: ScheduledCheck): void {
    const tick = async () => {
      if (this.stopped) return;
      try {
        if (await check()) this.wake();
      } catch (error) {
        this.ctx.logger.warn({ err: error, check: name }, 'a scheduled check failed; it runs again later');
      }
    };
    void tick();
    this.timers.push(setInterval(tick, everyMs).unref());
  }

  /** Looks for work now instead of at the next poll (after an enqueue in this process). */
  wake(): void {
    this.idlePolls = 0;
    if (!this.stopped) this.schedulePoll(0);
  }

  /** Stops taking jobs, aborts the ones running and waits for them to wind down. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unlisten?.();
    this.unlisten = undefined;
    clearTimeout(this.pollTimer);
    for (const timer of this.timers) clearInterval(timer);
    for (const { controller } of this.running.values()) controller.abort(new Error('worker stopping'));
    await Promise.allSettled([...this.running.values()].map((r) => r.done));
  }

  /** Resolves when no job is queued, due and unclaimed, and none is running here (for tests and seeding). */
  async idle(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      // Quiet before and after the query: a job a poll is claiming is neither queued nor running yet.
      if (this.quiet()) {
        const due = await this.hasDueWork();
        if (!due && this.quiet()) return;
        // Work the clock made due (a test's clock moved on) is taken now, not at the next idle look.
        if (due) this.wake();
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('job runner did not become idle in time');
  }

  private quiet(): boolean {
    return this.running.size === 0 && !this.polling;
  }

  private async hasDueWork(): Promise<boolean> {
    return hasRow(
      this.ctx.db,
      jobs,
      and(eq(jobs.status, 'queued'), sql`${jobs.runAt} <= ${this.ctx.clock.now()}`),
    );
  }

  private schedulePoll(delay: number): void {
    clearTimeout(this.pollTimer);
    this.pollTimer = setTimeout(() => void this.poll(), delay);
  }

  private async poll(): Promise<void> {
    if (this.stopped) return;
    if (this.polling) {
      this.pollAgain = true;
      return;
    }
    this.polling = true;
    this.pollAgain = false;
    let claimed = 0;
    try {
      while (!this.stopped && this.running.size < this.concurrency) {
        const job = await claimJob(
          this.ctx.db,
          this.worker,
          this.ctx.clock.now(),
          this.staleMs,
          this.fullTypes(),
        );
        if (!job) break;
        this.launch(job);
        claimed++;
      }
    } catch (error) {
      this.ctx.logger.warn({ err: error }, 'job poll failed; will retry');
    } finally {
      this.polling = false;
      this.idlePolls = claimed || this.running.size ? 0 : this.idlePolls + 1;
      if (!this.stopped) this.schedulePoll(this.pollAgain ? 0 : this.nextPollMs());
    }
  }

  /**
   * PostgreSQL: every `pollMs` (another node may have enqueued). The embedded database: `pollMs` while
   * there is work, then twice as long after each idle look, up to IDLE_POLL_MS.
   */
  private nextPollMs(): number {
    if (this.ctx.dbKind !== 'pglite') return this.pollMs;
    return Math.max(this.pollMs, Math.min(this.pollMs * 2 ** this.idlePolls, this.idlePollMs));
  }

  /** Job types whose limit (their own, or the background types' together) is reached here. */
  private fullTypes(): string[] {
    const running = [...this.running.values()];
    const full: string[] = [];
    for (const [type, limit] of Object.entries(this.typeLimits)) {
      if (running.filter((r) => r.type === type).length >= (limit ?? Infinity)) full.push(type);
    }
    const background = running.filter((r) => this.backgroundTypes.has(r.type)).length;
    if (background >= Math.max(1, this.concurrency - 1)) full.push(...this.backgroundTypes);
    return full;
  }

  private launch(job: Job): void {
    const controller = new AbortController();
    const log = this.ctx.logger.child({ job: job.id, type: job.type });
    const beat = setInterval(async () => {
      const stillMine = await heartbeat(this.ctx.db, job.id, this.worker, this.ctx.clock.now()).catch(
        () => true,
      );
      if (!stillMine) controller.abort(new Error('job cancelled'));
    }, this.heartbeatMs);
    const done = (async () => {
      const handler = this.handlers[job.type as JobType] as
        ((p: unknown, r: unknown) => Promise<void>) | undefined;
      try {
        if (!handler) throw new PermanentJobError(`no handler for job type ${job.type}`);
        await handler(job.payload, { jobId: job.id, attempt: job.attempts, signal: controller.signal, log });
        await completeJob(this.ctx.db, job.id, this.ctx.clock.now());
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (this.stopped && controller.signal.aborted) {
          log.info('job interrupted by shutdown; it will be retried');
          await releaseJob(this.ctx.db, job.id, this.ctx.clock.now()).catch(() => {});
        } else {
          const outcome = await failJob(
            this.ctx.db,
            job,
            message,
            this.ctx.clock.now(),
            error instanceof PermanentJobError,
            isRetryLater(error),
            retryDelayOf(error),
          ).catch(() => 'retry');
          log.warn({ err: error, outcome }, 'job failed');
        }
      } finally {
        clearInterval(beat);
        this.running.delete(job.id);
        if (!this.stopped) this.schedulePoll(0);
      }
    })();
    this.running.set(job.id, { type: job.type, controller, done });
  }
}
