#!/usr/bin/env node
// `npm start`: build the app if its sources changed since the last build, then start the reference
// server with the embedded store. Same environment variables as the server (see README).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildEnvOf, buildIsCurrent } from './build-stamp.mjs';
import { isProductionEnv, requireNode, runServer } from './server-process.mjs';

requireNode();

const root = new URL('..', import.meta.url).pathname;
const outDir = join(root, 'dist', 'client');
const stampFile = join(outDir, '.build-stamp.json');
const inputs = ['src', 'index.html', 'operator.html', 'vite.config.ts', 'package-lock.json', 'scripts/build-target.ts'];

// The demo turns the development-only calls (debug login, dev outbox, analytics collector) on, unless told otherwise.
const env = { ...process.env };
const production = isProductionEnv(env.NODE_ENV);
// One spelling from here on: the build and the server read exactly `production`.
if (production) env.NODE_ENV = 'production';
if (env.ONKURE_DEV_CALLS === undefined && !production) {
  env.ONKURE_DEV_CALLS = '1';
  console.log(
    'onkure: development-only calls (debug login, dev outbox, analytics collector) are ON for this demo (ONKURE_DEV_CALLS=1); never expose this server publicly.',
  );
}
// With them on, the app built here also posts each analytics event to the server's development
// collector, where e2e reads them back (docs/analytics.md). Set VITE_ANALYTICS_COLLECT_URL= (empty) to opt out.
if (env.ONKURE_DEV_CALLS === '1' && env.VITE_ANALYTICS_COLLECT_URL === undefined) {
  const apiBase = env.VITE_API_BASE || `/${(env.API_PREFIX ?? 'api').replace(/^\/+|\/+$/g, '')}`;
  env.VITE_ANALYTICS_COLLECT_URL = `${apiBase.replace(/\/+$/, '')}/dev/analytics/collect`;
}
// NODE_ENV is part of it: a build made under NODE_ENV=development (React's development build) must
// not be served later under production, and the other way round.
const buildEnv = buildEnvOf(env);

function newestMtime(path) {
  const full = join(root, path);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(full).reduce((max, name) => Math.max(max, newestMtime(join(path, name))), stat.mtimeMs);
}

function currentBuild() {
  if (!existsSync(stampFile) || !existsSync(join(outDir, 'index.html'))) return false;
  const newest = Math.max(...inputs.map((p) => newestMtime(p)));
  return buildIsCurrent(JSON.parse(readFileSync(stampFile, 'utf8')), buildEnv, newest);
}

if (!currentBuild()) {
  console.log('onkure: building the app…');
  const startedAt = Date.now();
  const build = spawnSync(
    process.execPath,
    [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    { cwd: root, stdio: 'inherit', env },
  );
  if (build.status !== 0) process.exit(build.status ?? 1);
  writeFileSync(stampFile, JSON.stringify({ builtAt: startedAt, env: buildEnv }));
}

// `--build-only` (npm run cluster): the app is built when needed, and no server starts here.
// With the development calls on, the demo's stations run on a sim agent process of their own (scripts/server-process.mjs).
if (!process.argv.includes('--build-only')) runServer(root, env, { demoAgent: env.ONKURE_DEV_CALLS === '1' });
