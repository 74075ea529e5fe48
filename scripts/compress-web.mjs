// Writes .br and .gz beside each built asset; the server sends them precompressed (@fastify/static preCompressed).
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = 'dist/web/assets';
for (const name of await readdir(root)) {
  if (!/\.(js|css|svg|json|map)$/.test(name)) continue;
  const file = path.join(root, name);
  const data = await readFile(file);
  if (data.length < 1024) continue;
  await writeFile(`${file}.gz`, gzipSync(data, { level: 9 }));
  // Brotli's best for what every visitor downloads; source maps (14 MB, read by a developer's tools
  // now and then) at quality 5: at 11 they were 32 of the build's 40 CPU-seconds of compression.
  const quality = name.endsWith('.map') ? 5 : 11;
  await writeFile(
    `${file}.br`,
    brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: quality } }),
  );
}
