/**
 * `npm run bench [-- name …]`: runs the named benchmark scenarios, or all of them. Benchmarks print
 * figures; the exit code is 1 when a scenario misses a target it checks (or fails).
 * Adding a scenario is one line below: a module under bench/ exporting `run(): Promise<boolean>`.
 */
const scenarios: Record<string, () => Promise<{ run(): Promise<boolean> }>> = {
  streaming: () => import('./streaming'),
  delivery: () => import('./delivery'),
  admin: () => import('./admin'),
  web: () => import('./web'),
  rush: () => import('./rush'),
  analytics: () => import('./analytics'),
  storage: () => import('./storage'),
  trace: () => import('./trace'),
  lighthouse: () => import('./lighthouse'),
  forensic: () => import('./forensic'),
  backup: () => import('./backup'),
  metrics: () => import('./metrics'),
  scan: () => import('./scan'),
  search: () => import('./search'),
  'sign-in-flood': () => import('./sign-in-flood'),
  live: () => import('./live'),
  certificates: () => import('./certificates'),
};

async function main(): Promise<number> {
  const asked = process.argv.slice(2);
  const unknown = asked.filter((name) => !(name in scenarios));
  if (unknown.length) {
    console.error(`Unknown benchmark ${unknown.join(', ')}. Known: ${Object.keys(scenarios).join(', ')}`);
    return 2;
  }
  let ok = true;
  for (const name of asked.length ? asked : Object.keys(scenarios)) {
    console.log(`\n=== ${name} ===`);
    const started = performance.now();
    const passed = await (await scenarios[name]!()).run();
    console.log(
      `=== ${name}: ${passed ? 'all targets met' : 'some targets missed'} in ${((performance.now() - started) / 1000).toFixed(0)} s ===`,
    );
    ok &&= passed;
  }
  return ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
