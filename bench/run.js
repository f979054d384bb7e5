'use strict';
// `npm run bench`: every benchmark in turn (or the ones named on the command line).
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const all = ['api-validate', 'apiserver', 'apply', 'scheduler', 'node-agent', 'start'];
const chosen = process.argv.slice(2).length ? process.argv.slice(2) : all;
let failed = 0;
for (const name of chosen) {
  const file = path.join(__dirname, `${name}.js`);
  console.log(`\n=== ${name}`);
  const r = spawnSync(process.execPath, [file], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
