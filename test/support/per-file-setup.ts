/**
 * Runs before each test file of the server-side tiers, which share modules between files
 * (vitest.config.ts, isolate: false): state a file's helpers keep about *its* servers must not
 * reach the next file, whose servers may reuse the same ports.
 */
import { forgetAllFactors } from './admin-factor';

forgetAllFactors();
