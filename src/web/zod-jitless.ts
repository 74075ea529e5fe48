import { config } from 'zod/v4/core';

// Our CSP forbids eval, so zod's compiled fast path can never run in the browser; without this,
// zod probes with `new Function` when a schema is built, and the browser reports that probe as a
// CSP violation. Imported first by main.tsx, before any module builds a schema.
config({ jitless: true });
