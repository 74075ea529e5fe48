/**
 * `npm run lint:folders` (part of `npm run lint`): fails on a cycle between the server's parts
 * (scripts/server-layers.mjs) or between the web app's folders, naming each group and the imports
 * inside it. dependency-cruiser refuses file cycles (no-circular); its folder rules see plain
 * folders, tests included, not our parts (a wiring file in jobs/, a storage file in media/), so
 * this reads the same imports `npm run graph` draws. Run where .dependency-cruiser.mjs is.
 */
import { readImportGraph } from './import-graph.mjs';

const { serverCycles, webCycles, closing } = await readImportGraph();
const found = [
  ...serverCycles.map((group) => ({ where: 'server', group })),
  ...webCycles.map((group) => ({ where: 'web', group })),
];
for (const { where, group } of found) {
  console.error(`folder cycle in src/${where}: ${group.join(', ')}`);
  for (const line of closing(where, group)) console.error(`    ${line}`);
}
if (found.length) {
  console.error(
    `\n${found.length} folder cycles: move what both sides need below both (scripts/server-layers.mjs says what lies below), or split the folder.`,
  );
  process.exit(1);
}
console.log('✔ no folder cycles');
