/** Numbers from either driver (bigint and numeric arrive as strings from node-postgres). */
export const num = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));

/** Timestamps from either driver as ISO strings. */
export const iso = (value: unknown): string | null =>
  value === null || value === undefined ? null : new Date(value as string).toISOString();

/** Watched seconds over a length as a share, 0..1. */
export const shareOf = (watched: number, length: number) =>
  length > 0 ? Math.min(1, Math.max(0, watched) / length) : 0;

/** Four decimals: enough for a share, short in JSON and CSV. */
export const round4 = (n: number) => Math.round(n * 10_000) / 10_000;
