import type { CheckResult, ReadinessResponse } from '../../contract/health';

/**
 * One dependency readiness looks at. `probe` resolves when it is usable and throws when not; the
 * thrown message becomes the check's one-line `error` (cleaned by `oneLine`, so no URL credentials
 * or query strings reach the answer).
 */
export interface HealthCheck {
  /** The key in `/readyz`'s `checks` and the doctor's line. */
  name: string;
  probe(signal: AbortSignal): Promise<void>;
  /** Reuse the last result this long (an expensive probe such as the store's write-read-delete). */
  cacheMs?: number;
  /** Counted as failed after this long (default 3 s): a hung dependency must not hang the probe. */
  timeoutMs?: number;
  /**
   * Shown in `/readyz` and the doctor, but never makes the node unready: a dependency the node can
   * serve without (the backup target) must not take a school offline when it is away.
   */
  advisory?: boolean;
}

const DEFAULT_TIMEOUT_MS = 3_000;

/** An error as one short line: first line only, URL credentials and query strings removed. */
export function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message || error.name : String(error);
  return (
    text
      .split('\n')[0]!
      .replace(/\/\/[^/\s:@]+:[^/\s@]*@/g, '//…@')
      .replace(/(https?:\/\/[^\s?]+)\?\S*/g, '$1?…')
      .trim()
      .slice(0, 200) || 'failed'
  );
}

/** Runs one check with its timeout; never throws. */
export async function runCheck(check: HealthCheck): Promise<CheckResult> {
  const started = performance.now();
  const controller = new AbortController();
  const timeoutMs = check.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new Error(`no answer within ${timeoutMs / 1000} s`);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  try {
    await Promise.race([check.probe(controller.signal), timedOut]);
    return { ok: true, ms: Math.round(performance.now() - started) };
  } catch (error) {
    return { ok: false, ms: Math.round(performance.now() - started), error: oneLine(error) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The process's readiness: its checks (wiring/health-registry.ts lists them; `add` takes more), run
 * together on each `/readyz`, and the draining flag a shutdown raises first so a balancer stops
 * sending new work while the requests in flight finish.
 */
export class Readiness {
  private readonly checks: HealthCheck[] = [];
  private readonly cached = new Map<string, { result: CheckResult; at: number }>();
  /** Concurrent probes of one check share one run (a balancer and a monitor asking at once). */
  private readonly inFlight = new Map<string, Promise<CheckResult>>();
  private drainingSince: number | undefined;

  constructor(checks: HealthCheck[] = []) {
    for (const check of checks) this.add(check);
  }

  add(check: HealthCheck): void {
    if (this.checks.some((c) => c.name === check.name))
      throw new Error(`two readiness checks named ${check.name}`);
    this.checks.push(check);
  }

  get names(): string[] {
    return this.checks.map((c) => c.name);
  }

  /** From now on `/readyz` answers 503 `draining`, whatever the checks say. */
  drain(): void {
    this.drainingSince ??= Date.now();
  }

  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  async report(): Promise<ReadinessResponse> {
    const results = await Promise.all(this.checks.map((check) => this.result(check)));
    const checks = Object.fromEntries(this.checks.map((c, i) => [c.name, results[i]!]));
    const ok = results.every((r, i) => r.ok || this.checks[i]!.advisory);
    return { status: this.draining ? 'draining' : ok ? 'ready' : 'not ready', checks };
  }

  private result(check: HealthCheck): Promise<CheckResult> {
    const hit = this.cached.get(check.name);
    if (hit && check.cacheMs && Date.now() - hit.at < check.cacheMs) return Promise.resolve(hit.result);
    let running = this.inFlight.get(check.name);
    if (!running) {
      running = runCheck(check).then((result) => {
        this.cached.set(check.name, { result, at: Date.now() });
        this.inFlight.delete(check.name);
        return result;
      });
      this.inFlight.set(check.name, running);
    }
    return running;
  }
}
