import path from 'node:path';

/**
 * Runs a benchmark's `run` when its file is the process's entry (`node --import tsx bench/x.ts`):
 * exit 0 when it passes, 1 when it fails or throws. `moduleUrl` is the caller's `import.meta.url`.
 */
export function runIfMain(moduleUrl: string, run: () => Promise<boolean>): void {
  if (!process.argv[1] || path.resolve(process.argv[1]) !== path.resolve(new URL(moduleUrl).pathname)) return;
  run().then(
    (ok) => process.exit(ok ? 0 : 1),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}

/**
 * The main of a load client its parent spawns with its options as JSON in argv[2]: runs `client`
 * with them and writes its result as one JSON line on stdout (exit 0), or the error (exit 1).
 * `moduleUrl` is the caller's `import.meta.url`; imported by another file, it does nothing.
 */
export function runChildMain<O, R>(moduleUrl: string, client: (options: O) => Promise<R>): void {
  const file = path.basename(new URL(moduleUrl).pathname);
  if (!process.argv[1]?.endsWith(file) || !process.argv[2]) return;
  client(JSON.parse(process.argv[2]) as O).then(
    (result) => {
      process.stdout.write(`${JSON.stringify(result)}\n`);
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
