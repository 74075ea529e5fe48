/** Types of scripts/server-bundle.mjs for the benchmarks that build through it. */
export function bundleServerEntries(
  entries: string[],
  outdir: string,
  options?: { sourcemap?: boolean },
): Promise<void>;
