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
  await writeFile(
    `${file}.br`,
    brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  );
}
