/** Types of scripts/test-timings.mjs for the TypeScript reporters that write through it. */
export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}
export interface FileTiming {
  tier: string;
  file: string;
  seconds: number;
  tests: Counts;
}
export function recordStage(name: string, seconds: number): void;
export function recordFiles(tiers: string[], files: FileTiming[]): void;
export function addFile(file: FileTiming): void;
export function report(): void;
