import { z } from 'zod';

/** `GET /healthz`: the process serves HTTP; nothing else is checked (a load balancer's liveness probe). */
export const LivenessResponse = z.strictObject({ status: z.literal('ok') });

/** One dependency's answer in `GET /readyz`; `error` is one line and never holds a secret. */
export const CheckResult = z.strictObject({
  ok: z.boolean(),
  ms: z.number().int().nonnegative(),
  error: z.string().optional(),
});
export type CheckResult = z.infer<typeof CheckResult>;

/**
 * `GET /readyz`: 200 `ready` when every check passes, else 503 `not ready`; 503 `draining` once the
 * process has been asked to stop (a balancer sends it no new work). Checks: database, migrations,
 * store, disk, and redis (with REDIS_URL) and ffmpeg (where jobs run), plus any a domain adds.
 */
export const ReadinessResponse = z.strictObject({
  status: z.enum(['ready', 'not ready', 'draining']),
  checks: z.record(z.string(), CheckResult),
});
export type ReadinessResponse = z.infer<typeof ReadinessResponse>;
