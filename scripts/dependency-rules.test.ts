import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * `npm run lint:deps` (.dependency-cruiser.mjs) bites: run as package.json says, on a scratch
 * tree with an upward import and a cycle it fails naming both, it lets the known violations of
 * its baseline through but not a new one, and it passes on this repository. So does
 * `npm run lint:folders` (scripts/folder-cycles.mjs) on a cycle between folders.
 */

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
const manifest = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
const cruiserBins: Record<string, string> = JSON.parse(
  await readFile(path.join(root, 'node_modules/dependency-cruiser/package.json'), 'utf8'),
).bin;

/** Runs an npm script of ours in `cwd` with dependency-cruiser's own binaries; exit code and output. */
async function npmScript(name: string, cwd: string, { cache = true } = {}) {
  const [bin, ...args] = (manifest.scripts[name] as string).split(' ');
  // The cache compares against git, and the scratch tree is no checkout: cruise it afresh.
  const cacheAt = args.indexOf('--cache');
  if (!cache && cacheAt >= 0) args.splice(cacheAt, 2);
  const binary = path.join(root, 'node_modules/dependency-cruiser', cruiserBins[bin!]!);
  try {
    const { stdout, stderr } = await run(process.execPath, [binary, ...args], { cwd });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

/** Runs `npm run lint:folders` (a node script of ours) in `cwd`; exit code and output. */
async function lintFolders(cwd: string) {
  const [, script] = (manifest.scripts['lint:folders'] as string).split(' ');
  try {
    const { stdout, stderr } = await run(process.execPath, [path.join(root, script!)], { cwd });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

/** A tree with our rules (config, layers, tsconfig) and `files` (path -> source). */
async function scratchTree(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'lectern-deps-'));
  for (const name of ['.dependency-cruiser.mjs', 'scripts/server-layers.mjs', 'tsconfig.json']) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await copyFile(path.join(root, name), path.join(dir, name));
  }
  for (const folder of ['test', 'e2e', 'bench']) await mkdir(path.join(dir, folder));
  await writeFile(path.join(dir, '.dependency-cruiser-known-violations.json'), '[]\n');
  await addFiles(dir, files);
  return dir;
}

async function addFiles(dir: string, files: Record<string, string>) {
  for (const [name, source] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), source);
  }
}

const layered = {
  'src/server/videos/access.ts': 'export const grant = 1;\n',
  'src/server/courses/course.ts': 'export interface Course { name: string }\n',
  // Downward, allowed: a domain importing the core.
  'src/server/courses/service.ts': "import { id } from '../db/ids';\nexport const course = id;\n",
  // Upward: the core importing a domain, once as a value and once as a type only.
  'src/server/db/ids.ts': "import { grant } from '../videos/access';\nexport const id = grant;\n",
  'src/server/config/index.ts':
    "import type { Course } from '../courses/course';\nexport type Config = { first?: Course };\n",
  // The job registry is wiring: it may import a domain, and the runner in jobs/ (platform) may
  // not import it.
  'src/server/wiring/job-registry.ts':
    "import { grant } from '../videos/access';\nexport const handlers = [grant];\n",
  'src/server/jobs/runner.ts':
    "import { handlers } from '../wiring/job-registry';\nexport const run = () => handlers;\n",
  // A file cycle inside one folder.
  'src/server/storage/local-store.ts':
    "import { upload } from './local-uploads';\nexport const store = upload;\n",
  'src/server/storage/local-uploads.ts':
    "import { store } from './local-store';\nexport const upload = () => store;\n",
};

const scratch: string[] = [];
afterEach(async () => {
  for (const dir of scratch.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('npm run lint:deps', () => {
  it(
    'fails on upward imports (a type-only one, one from platform up into wiring) and on a file cycle',
    { timeout: 60_000 },
    async () => {
      const dir = await scratchTree(layered);
      scratch.push(dir);
      const { code, output } = await npmScript('lint:deps', dir, { cache: false });
      expect(code).not.toBe(0);
      expect(output).toContain(
        'server-core-below-domains: src/server/db/ids.ts → src/server/videos/access.ts',
      );
      expect(output).toContain(
        'server-core-below-domains: src/server/config/index.ts → src/server/courses/course.ts',
      );
      expect(output).toContain(
        'server-platform-below-wiring: src/server/jobs/runner.ts → src/server/wiring/job-registry.ts',
      );
      expect(output).toMatch(/no-circular: src\/server\/storage\/local-(store|uploads)\.ts/);
      expect(output).toContain('4 dependency violations');
    },
  );

  it('lets the baseline through and fails on a new violation', { timeout: 60_000 }, async () => {
    const dir = await scratchTree(layered);
    scratch.push(dir);
    expect((await npmScript('lint:deps:baseline', dir)).code).toBe(0);
    expect((await npmScript('lint:deps', dir, { cache: false })).code).toBe(0);

    await addFiles(dir, { 'src/server/mail/mailer.ts': "import '../courses/service';\n" });
    const { code, output } = await npmScript('lint:deps', dir, { cache: false });
    expect(code).not.toBe(0);
    expect(output).toContain(
      'server-core-below-domains: src/server/mail/mailer.ts → src/server/courses/service.ts',
    );
    expect(output).toContain('1 dependency violations');
  });

  it('passes on this repository', { timeout: 120_000 }, async () => {
    const { code, output } = await npmScript('lint:deps', root);
    expect(output).toContain('no dependency violations found');
    expect(code).toBe(0);
  });
});

/** Two server parts and two web folders that reach each other, through different files (no file cycle). */
const folderCycles = {
  'src/server/courses/rule.ts': 'export const open = true;\n',
  'src/server/courses/list.ts': "import { read } from '../progress/read';\nexport const list = read;\n",
  'src/server/progress/read.ts': 'export const read = 1;\n',
  'src/server/progress/save.ts': "import { open } from '../courses/rule';\nexport const save = open;\n",
  'src/web/app/navigation.ts': 'export const go = 1;\n',
  'src/web/app/router.tsx': "import { page } from '../student/Page';\nexport const router = page;\n",
  'src/web/student/Page.tsx': "import { go } from '../app/navigation';\nexport const page = go;\n",
};

describe('npm run lint:folders', () => {
  it(
    'fails on a cycle between server parts and one between web folders, naming the imports',
    { timeout: 60_000 },
    async () => {
      const dir = await scratchTree(folderCycles);
      scratch.push(dir);
      const { code, output } = await lintFolders(dir);
      expect(code).not.toBe(0);
      expect(output).toContain('folder cycle in src/server: courses/, progress/');
      expect(output).toContain('src/server/progress/save.ts → src/server/courses/rule.ts');
      expect(output).toContain('folder cycle in src/web: app, student');
      expect(output).toContain('src/web/student/Page.tsx → src/web/app/navigation.ts');
      expect(output).toContain('2 folder cycles');
    },
  );

  it('passes on this repository', { timeout: 120_000 }, async () => {
    const { code, output } = await lintFolders(root);
    expect(output).toContain('no folder cycles');
    expect(code).toBe(0);
  });
});
