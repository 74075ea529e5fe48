import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { PAGE_BUDGETS } from './page-budget';

/**
 * `npm run budget` (scripts/page-budget.ts) bites: run as package.json says on a scratch build
 * shaped like ours (an entry, the student routes' chunks and what they import), it passes while
 * every page fits, and fails naming the page and the heavy package once one page imports it.
 */

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
const scripts = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')).scripts as Record<
  string,
  string
>;

/** Runs `npm run budget` with `--dist dist`; exit code and output. */
async function budget(dist: string) {
  const [, ...args] = scripts.budget!.split(' ');
  try {
    const { stdout, stderr } = await run(process.execPath, [...args, '--dist', dist], { cwd: root });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

/** JavaScript-like text that gzip cannot shrink much: about `kib` KiB once compressed. */
const incompressible = (kib: number) => `export default "${randomBytes(kib * 1024).toString('base64')}";`;

interface Chunk {
  file: string;
  kib: number;
  imports?: string[];
  isEntry?: true;
  /** The bundle map's sources of this chunk. */
  source: string;
}

/** A build in `dist`: the chunks' files, Vite's manifest and the bundle map. */
async function writeBuild(dist: string, chunks: Record<string, Chunk>) {
  await mkdir(path.join(dist, 'assets'), { recursive: true });
  await mkdir(path.join(dist, '.vite'), { recursive: true });
  const manifest: Record<string, unknown> = {};
  const map: Record<string, Record<string, { bytes: number; gzip: number }>> = {};
  for (const [key, { file, kib, imports, isEntry, source }] of Object.entries(chunks)) {
    const code = incompressible(kib);
    await writeFile(path.join(dist, file), code);
    manifest[key] = { file, ...(imports && { imports }), ...(isEntry && { isEntry }) };
    map[file] = { [source]: { bytes: code.length, gzip: kib * 1024 } };
  }
  await writeFile(path.join(dist, '.vite/manifest.json'), JSON.stringify(manifest));
  await writeFile(path.join(dist, '.vite/bundle-map.json'), JSON.stringify(map));
}

/** Our student routes, each well within its budget. */
const studentBuild = (): Record<string, Chunk> => ({
  'index.html': {
    file: 'assets/index.js',
    kib: 110,
    isEntry: true,
    imports: ['_web.js'],
    source: 'src/web/main.tsx',
  },
  '_web.js': { file: 'assets/web.js', kib: 20, source: 'node_modules/react-dom/client.js' },
  'student/LoginPage.tsx': { file: 'assets/LoginPage.js', kib: 8, source: 'src/web/student/LoginPage.tsx' },
  'student/StudentShell.tsx': {
    file: 'assets/StudentShell.js',
    kib: 5,
    source: 'src/web/student/StudentShell.tsx',
  },
  'student/ResetPasswordPage.tsx': {
    file: 'assets/ResetPasswordPage.js',
    kib: 10,
    source: 'src/web/student/ResetPasswordPage.tsx',
  },
  'student/DashboardPage.tsx': {
    file: 'assets/DashboardPage.js',
    kib: 10,
    source: 'src/web/student/DashboardPage.tsx',
  },
  'student/CoursePage.tsx': {
    file: 'assets/CoursePage.js',
    kib: 12,
    source: 'src/web/student/CoursePage.tsx',
  },
});

let scratch: string | undefined;
afterEach(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('npm run budget', () => {
  it('passes while every student page fits its budget, and prints each page', async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'lectern-budget-'));
    await writeBuild(scratch, studentBuild());
    const { code, output } = await budget(scratch);
    expect(output).toMatch(/dashboard\s+[\d.]+ KiB {2}budget 165 KiB {2}ok/);
    for (const { page } of PAGE_BUDGETS) expect(output).toContain(page);
    expect(code).toBe(0);
  });

  it('fails naming the page and the heavy package once a student page imports it', async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'lectern-budget-'));
    const build = studentBuild();
    // The dashboard imports a charting library statically (40 KiB gzip).
    build['student/DashboardPage.tsx']!.imports = ['_charts.js'];
    build['_charts.js'] = { file: 'assets/charts.js', kib: 40, source: 'node_modules/recharts/es6/index.js' };
    await writeBuild(scratch, build);
    const { code, output } = await budget(scratch);
    expect(code).toBe(1);
    expect(output).toMatch(/dashboard\s+[\d.]+ KiB {2}budget 165 KiB {2}OVER/);
    expect(output).toMatch(/40\.0 KiB {2}node_modules\/recharts\n/);
    expect(output).toMatch(/course\s+[\d.]+ KiB {2}budget 167 KiB {2}ok/);
    expect(output).toContain('1 student page(s) over budget');
  });
});
