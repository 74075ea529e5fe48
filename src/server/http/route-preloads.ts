import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { openingVideoIndex } from '../../contract/opening-video';
import type { FirstScreen } from './first-answers';

const TIME = { method: 'GET', url: '/api/time' } as const;
const AUTH_CHECK = { method: 'GET', url: '/api/auth/check' } as const;
const COURSES = { method: 'GET', url: '/api/courses' } as const;

/**
 * The student pages a phone opens first, with the modules their routes load on demand (the layout
 * route, then the page: web/app/router.tsx), named as in the build manifest (relative to src/web),
 * and the API answers their first screen waits for (web/app/prefetch.ts asks them once the entry
 * has run). Their index.html lists those chunks as `<link rel="modulepreload">`, so the browser
 * fetches them beside the entry chunk instead of after it has run (one round trip less on mobile
 * data), and carries those answers (first-answers.ts), so the page does not ask them at all once its
 * code has run (more round trips, one after the other).
 */
export const ROUTE_MODULES: readonly {
  path: RegExp;
  modules: readonly string[];
  /** From the path's match (the course id) and the query (`?video=`). */
  firstScreen: (match: RegExpExecArray, query: URLSearchParams) => FirstScreen;
}[] = [
  { path: /^\/$/, modules: ['student/LoginPage.tsx'], firstScreen: () => ({ anyone: [TIME] }) },
  {
    path: /^\/reset-password$/,
    modules: ['student/StudentShell.tsx', 'student/ResetPasswordPage.tsx'],
    firstScreen: () => ({ anyone: [TIME] }),
  },
  {
    path: /^\/dashboard$/,
    modules: ['student/StudentShell.tsx', 'student/DashboardPage.tsx'],
    firstScreen: () => ({ anyone: [TIME, AUTH_CHECK], student: [COURSES] }),
  },
  {
    path: /^\/course\/([^/]+)$/,
    modules: ['student/StudentShell.tsx', 'student/CoursePage.tsx'],
    firstScreen: ([, segment], query) => {
      let courseId: string;
      try {
        courseId = decodeURIComponent(segment!);
      } catch {
        return { anyone: [TIME, AUTH_CHECK] }; // the page answers a malformed address itself
      }
      const videos = { method: 'POST', url: '/api/videos', body: { courseId } } as const;
      return {
        anyone: [TIME, AUTH_CHECK],
        student: [{ method: 'POST', url: '/api/rollno', body: { courseId } }, COURSES, videos],
        // The poster of the video the page opens with (as web/app/prefetch.ts picks it): its largest picture.
        picture: (answer) => {
          const list = (answer(videos) as { videos?: { _id: string; thumbnail?: string }[] } | undefined)
            ?.videos;
          const current = list?.[openingVideoIndex(list, query.get('video'))];
          return current?.thumbnail || undefined;
        },
      };
    },
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
export function staticClosure(manifest: Manifest, keys: readonly string[]): Set<string> {
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

/** A student page's index.html, and what its first screen asks. */
export interface RoutePage {
  html: string;
  firstScreen?: FirstScreen;
}

/**
 * `index.html` for a request URL (path and query): with the route's preload tags before `</head>`
 * when the build left a manifest (`webRoot/.vite/manifest.json`), and its first screen's calls,
 * when the path is one of ROUTE_MODULES.
 */
export function routeHtml(webRoot: string, indexHtml: string): (url: string) => RoutePage {
  const manifestFile = path.join(webRoot, '.vite', 'manifest.json');
  const manifest = existsSync(manifestFile)
    ? (JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest)
    : undefined;
  const pages = ROUTE_MODULES.map(({ path: pattern, modules, firstScreen }) => ({
    pattern,
    firstScreen,
    html: manifest ? indexHtml.replace('</head>', `${preloadTags(manifest, modules)}</head>`) : indexHtml,
  }));
  return (url) => {
    const [pathname = '/', search = ''] = url.split('?', 2);
    for (const page of pages) {
      const match = page.pattern.exec(pathname);
      if (match)
        return { html: page.html, firstScreen: page.firstScreen(match, new URLSearchParams(search)) };
    }
    return { html: indexHtml };
  };
}
