import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Where the build writes its bundle map, beside Vite's manifest in the web build's folder. */
export const BUNDLE_MAP_FILE = '.vite/bundle-map.json';

/**
 * Each chunk file's modules, by source (`node_modules/…` or `src/…`): their bytes as rendered before
 * minification, and their share of the chunk's gzip -9 size in proportion to those bytes.
 */
export type BundleMap = Record<string, Record<string, { bytes: number; gzip: number }>>;

const ROOT = path.resolve(import.meta.dirname, '..');

/** A module id as the map names it: relative to the repository, Rolldown's virtual prefixes dropped. */
export function sourceName(id: string): string {
  const file = id.replace(/^\0+/, '').split('?')[0]!;
  const nodeModules = file.lastIndexOf('/node_modules/');
  if (nodeModules >= 0) return file.slice(nodeModules + 1);
  return path.isAbsolute(file) ? path.relative(ROOT, file) : file;
}

/**
 * The build's bundle map (docs/PERFORMANCE.md): what each chunk is made of, module by module, as the
 * build rendered it (tree-shaken, minified), for `npm run budget -- --map` and for reading what a
 * page grew by. A module's gzip figure is an estimate (its share of the chunk); they add up to the
 * chunk's real gzip size.
 */
export function bundleMap(): Plugin {
  return {
    name: 'lectern-bundle-map',
    apply: 'build',
    generateBundle(_options, bundle) {
      const map: BundleMap = {};
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        const rendered = Object.entries(output.modules).filter(([, module]) => module.renderedLength > 0);
        const total = rendered.reduce((sum, [, module]) => sum + module.renderedLength, 0);
        const gzip = gzipSync(output.code, { level: 9 }).length;
        map[output.fileName] = Object.fromEntries(
          rendered.map(([id, module]) => [
            sourceName(id),
            { bytes: module.renderedLength, gzip: Math.round((gzip * module.renderedLength) / total) },
          ]),
        );
      }
      this.emitFile({ type: 'asset', fileName: BUNDLE_MAP_FILE, source: JSON.stringify(map) });
    },
  };
}
