import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The student pages a phone opens first, with the modules their routes load on demand (the layout
 * route, then the page: web/app/router.tsx), named as in the build manifest (relative to src/web),
 * and the API answers their first screen waits for (web/app/prefetch.ts asks them once the entry
 * has run). Their index.html lists those chunks as `<link rel="modulepreload">`, so the browser
 * fetches them beside the entry chunk instead of after it has run (one round trip less on mobile
 * data), and those answers as `<link rel="preload" as="fetch">`: the same request the page's
 * `fetch` makes (same URL, same-origin credentials), so the page takes the answer already under way
 * instead of asking after its code has arrived and run (another round trip).
 */
export const ROUTE_MODULES: readonly {
  path: RegExp;
  modules: readonly string[];
  requests: readonly string[];
}[] = [
  { path: /^\/$/, modules: ['student/LoginPage.tsx'], requests: ['/api/time'] },
  {
    path: /^\/reset-password$/,
    modules: ['student/StudentShell.tsx', 'student/ResetPasswordPage.tsx'],
    requests: ['/api/time'],
  },
  {
    path: /^\/dashboard$/,
    modules: ['student/StudentShell.tsx', 'student/DashboardPage.tsx'],
    requests: ['/api/time', '/api/auth/check'],
  },
  {
    path: /^\/course\/[^/]+$/,
    modules: ['student/StudentShell.tsx', 'student/CoursePage.tsx'],
    requests: ['/api/time', '/api/auth/check'],
  },
];

export interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
  isEntry?: boolean;
}
export type Manifest = Record<string, ManifestChunk>;

/** Manifest keys that `keys` need before they run: themselves and their static imports, transitively. */
function staticClosure(manifest: Manifest, keys: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    for (const dep of manifest[key].imports ?? []) visit(dep);
  };
  keys.forEach(visit);
  return seen;
}

/** The `<link>` tags a route adds to index.html: its chunks not already in the entry's closure, and their CSS. */
export function preloadTags(manifest: Manifest, modules: readonly string[]): string {
  const entries = Object.keys(manifest).filter((k) => manifest[k]!.isEntry);
  const loaded = staticClosure(manifest, entries);
  const needed = [...staticClosure(manifest, modules)].filter((k) => !loaded.has(k));
  const scripts = needed.map((k) => `<link rel="modulepreload" crossorigin href="/${manifest[k]!.file}">`);
  const styles = [...new Set(needed.flatMap((k) => manifest[k]!.css ?? []))].map(
    (file) => `<link rel="preload" as="style" crossorigin href="/${file}">`,
  );
  return [...scripts, ...styles].join('');
}

/** `<link rel="preload" as="fetch">` for API answers; `crossorigin` gives the same-origin credentials `fetch` sends by default. */
export const fetchPreloadTags = (requests: readonly string[]) =>
  requests.map((url) => `<link rel="preload" as="fetch" crossorigin href="${url}">`).join('');

/**
 * `index.html` for a request path: with the route's preload tags before `</head>` when the build
 * left a manifest (`webRoot/.vite/manifest.json`) and the path is one of ROUTE_MODULES.
 */
export function routeHtml(webRoot: string, indexHtml: string): (pathname: string) => string {
  const manifestFile = path.join(webRoot, '.vite', 'manifest.json');
  if (!existsSync(manifestFile)) return () => indexHtml;
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
  const pages = ROUTE_MODULES.map(({ path: pattern, modules, requests }) => ({
    pattern,
    html: indexHtml.replace(
      '</head>',
      `${fetchPreloadTags(requests)}${preloadTags(manifest, modules)}</head>`,
    ),
  }));
  return (pathname) => pages.find((p) => p.pattern.test(pathname))?.html ?? indexHtml;
}
