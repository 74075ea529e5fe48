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
  /** A Vitest file's CPU seconds (its worker's, and its processes'). */
  cpu?: number;
  tests: Counts;
}
export function recordStage(name: string, seconds: number): void;
export function recordFiles(tiers: string[], files: FileTiming[]): void;
export function addFile(file: FileTiming): void;
export function report(): void;
export function processCpu(): number;
export function recordFileCpu(file: string, cpu: number): void;
export function takeFileCpu(): Map<string, number>;
