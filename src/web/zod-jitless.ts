// Our CSP forbids eval, so zod's compiled fast path can never run in the browser; without this,
// zod probes with `new Function` when a schema is built, and the browser reports that probe as a
// CSP violation. Imported first by main.tsx, before any module builds a schema.
//
// Set where zod keeps its configuration (the object `config()` from 'zod/v4/core' changes, shared by
// every copy of zod on the page) rather than by importing zod: that import put 10 KiB of zod into
// the entry chunk, which the student pages otherwise never load. zod-jitless.test.ts checks that
// zod reads it.
const zodGlobal = globalThis as { __zod_globalConfig?: Record<string, unknown> };
Object.assign((zodGlobal.__zod_globalConfig ??= {}), { jitless: true });

export {};
