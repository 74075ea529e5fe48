import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { preloadTags, ROUTE_MODULES, routeHtml, type Manifest } from './route-preloads';

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

  it('gives each student page its own index.html and first screen, and every other path the plain one', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'lectern-preloads-'));
    await mkdir(path.join(dir, '.vite'));
    await writeFile(path.join(dir, '.vite', 'manifest.json'), JSON.stringify(manifest));
    const plain = '<html><head><title>x</title></head><body></body></html>';
    const htmlFor = routeHtml(dir, plain);
    const dashboard = htmlFor('/dashboard');
    expect(dashboard.html).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/DashboardPage-1.js">',
    );
    expect(dashboard.html.indexOf('DashboardPage-1.js')).toBeLessThan(dashboard.html.indexOf('</head>'));
    expect(dashboard.firstScreen?.anyone.map((c) => c.url)).toEqual(['/api/time', '/api/auth/check']);
    expect(dashboard.firstScreen?.student?.map((c) => c.url)).toEqual(['/api/courses']);
    expect(htmlFor('/').firstScreen).toEqual({ anyone: [{ method: 'GET', url: '/api/time' }] });
    expect(htmlFor('/adminstudents')).toEqual({ html: plain });
    expect(htmlFor('/course/a/b')).toEqual({ html: plain });
  });

  it("asks the course page's calls with the course of its address, and picks the poster it opens on", () => {
    dir = undefined;
    const htmlFor = routeHtml('/nonexistent', '<head></head>');
    const screen = htmlFor('/course/c%2D1?video=v2').firstScreen!;
    expect(screen.student).toEqual([
      { method: 'POST', url: '/api/rollno', body: { courseId: 'c-1' } },
      { method: 'GET', url: '/api/courses' },
      { method: 'POST', url: '/api/videos', body: { courseId: 'c-1' } },
    ]);
    const videos = [
      { _id: 'v1', thumbnail: '/stream/videos/v1/poster.jpg' },
      { _id: 'v2', thumbnail: '/stream/videos/v2/poster.jpg' },
    ];
    const answer = (call: { url: string }) => (call.url === '/api/videos' ? { videos } : undefined);
    expect(screen.picture!(answer)).toBe('/stream/videos/v2/poster.jpg');
    expect(htmlFor('/course/c-1').firstScreen!.picture!(answer)).toBe('/stream/videos/v1/poster.jpg');
    expect(htmlFor('/course/c-1').firstScreen!.picture!(() => undefined)).toBeUndefined();
    expect(htmlFor('/course/%E0%A4%A').firstScreen!.student).toBeUndefined();
  });

  it('serves the plain index.html, with the first screens, when the build left no manifest', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'lectern-preloads-'));
    const page = routeHtml(dir, '<head></head>')('/dashboard');
    expect(page.html).toBe('<head></head>');
    expect(page.firstScreen?.student).toHaveLength(1);
  });

  it('names modules that exist, as app/router.tsx loads them', () => {
    for (const { modules } of ROUTE_MODULES) {
      for (const module of modules) expect(existsSync(path.join('src/web', module)), module).toBe(true);
    }
  });
});
