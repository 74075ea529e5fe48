import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchPreloadTags, preloadTags, ROUTE_MODULES, routeHtml, type Manifest } from './route-preloads';

// The shape Vite writes: the entry, shared chunks, route chunks with their CSS.
const manifest: Manifest = {
  'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_Box-1.js'] },
  '_Box-1.js': { file: 'assets/Box-1.js' },
  '_Menu-1.js': { file: 'assets/Menu-1.js', imports: ['_Box-1.js'] },
  'student/StudentShell.tsx': { file: 'assets/StudentShell-1.js', imports: ['_Box-1.js', '_Menu-1.js'] },
  'student/DashboardPage.tsx': {
    file: 'assets/DashboardPage-1.js',
    imports: ['_Box-1.js'],
    css: ['assets/DashboardPage-1.css'],
  },
};

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('route preloads', () => {
  it("lists a route's chunks and their static imports once, without what the entry already loads", () => {
    const tags = preloadTags(manifest, ['student/StudentShell.tsx', 'student/DashboardPage.tsx']);
    expect(tags).toBe(
      '<link rel="modulepreload" crossorigin href="/assets/StudentShell-1.js">' +
        '<link rel="modulepreload" crossorigin href="/assets/Menu-1.js">' +
        '<link rel="modulepreload" crossorigin href="/assets/DashboardPage-1.js">' +
        '<link rel="preload" as="style" crossorigin href="/assets/DashboardPage-1.css">',
    );
  });

  it('gives each student page its own index.html, and every other path the plain one', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'lectern-preloads-'));
    await mkdir(path.join(dir, '.vite'));
    await writeFile(path.join(dir, '.vite', 'manifest.json'), JSON.stringify(manifest));
    const plain = '<html><head><title>x</title></head><body></body></html>';
    const htmlFor = routeHtml(dir, plain);
    const dashboard = htmlFor('/dashboard');
    expect(dashboard).toContain('<link rel="modulepreload" crossorigin href="/assets/DashboardPage-1.js">');
    expect(dashboard.indexOf('DashboardPage-1.js')).toBeLessThan(dashboard.indexOf('</head>'));
    expect(dashboard).toContain('<link rel="preload" as="fetch" crossorigin href="/api/auth/check">');
    expect(htmlFor('/')).toContain('<link rel="preload" as="fetch" crossorigin href="/api/time">');
    expect(htmlFor('/')).not.toContain('/api/auth/check');
    expect(htmlFor('/adminstudents')).toBe(plain);
    expect(htmlFor('/course/a/b')).toBe(plain);
  });

  it("asks a route's API answers as the page's fetch does: same URL, same-origin credentials", () => {
    expect(fetchPreloadTags(['/api/time', '/api/auth/check'])).toBe(
      '<link rel="preload" as="fetch" crossorigin href="/api/time">' +
        '<link rel="preload" as="fetch" crossorigin href="/api/auth/check">',
    );
  });

  it('serves the plain index.html when the build left no manifest', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'lectern-preloads-'));
    expect(routeHtml(dir, '<head></head>')('/dashboard')).toBe('<head></head>');
  });

  it('names modules that exist, as app/router.tsx loads them', () => {
    for (const { modules } of ROUTE_MODULES) {
      for (const module of modules) expect(existsSync(path.join('src/web', module)), module).toBe(true);
    }
  });
});
