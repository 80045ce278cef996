#!/usr/bin/env node
// Runs the unit suite (`npm run test:unit`) on the current Node LTS, beside the Node 20.19+ run of
// `npm test`. The LTS is pinned in .ci/node-lts/package.json and comes from the npm registry's `node`
// package (its preinstall fetches node-<platform>-<arch> of the same version, also from the registry;
// that project's allowScripts approves it), installed into .ci/node-lts/node_modules. The pin must be an
// LTS release: the binary's own process.release.lts says so, or this script refuses it.
// Arguments are passed on to vitest: `node scripts/test-on-node-lts.mjs test/domain`.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('../.ci/node-lts/', import.meta.url));
const version = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).dependencies.node;
const bin = join(dir, 'node_modules', 'node', 'bin');
const node = join(bin, 'node');

/** What `node` answers for an expression, or null when there is no such binary yet. */
function ask(expression) {
  try {
    return execFileSync(node, ['-p', expression], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

if (ask('process.version') !== `v${version}`) {
  console.log(`test-on-node-lts: installing Node ${version} from the npm registry's node package`);
  const install = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' });
  if (install.status !== 0) process.exit(install.status ?? 1);
  if (ask('process.version') !== `v${version}`) {
    console.error(`test-on-node-lts: ${node} is not Node ${version} after the install`);
    process.exit(1);
  }
}

const lts = ask('process.release.lts ?? ""');
if (!lts) {
  console.error(
    `test-on-node-lts: Node ${version} is not an LTS release (its process.release.lts is unset). ` +
      'Pin the newest release that has one in .ci/node-lts/package.json (`npm view node versions`).',
  );
  process.exit(1);
}

console.log(`test-on-node-lts: the unit suite on Node ${version} (LTS "${lts}")`);
const run = spawnSync('npm', ['run', 'test:unit', '--', ...process.argv.slice(2)], {
  stdio: 'inherit',
  // Every `node` the suite starts (npm, vitest, its workers, the servers tests spawn) is the LTS;
  // test/setup.ts fails each worker that is not.
  env: { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH}`, ONKURE_EXPECT_NODE: version },
});
process.exit(run.status ?? 1);
