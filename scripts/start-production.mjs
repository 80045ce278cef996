#!/usr/bin/env node
// `npm run start:production`: a deployment's start (docs/deployment.md). It serves the app built
// beforehand by `npm run build`, with NODE_ENV=production, and refuses to start when
// ONKURE_DEV_CALLS is set to anything at all: the development-only calls (debug login with free TC,
// dev outbox) can never be turned on through this command, whatever else the environment says.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { requireNode, runServer } from './server-process.mjs';

requireNode();
const root = new URL('..', import.meta.url).pathname;
const env = { ...process.env, NODE_ENV: 'production' };

if (env.ONKURE_DEV_CALLS !== undefined) {
  console.error(
    `onkure: production start refused: ONKURE_DEV_CALLS is set ("${env.ONKURE_DEV_CALLS}"). ` +
      'Development-only calls never run in production; remove the variable from the deployment.',
  );
  process.exit(1);
}
const staticDir = env.STATIC_DIR === undefined ? join(root, 'dist', 'client') : env.STATIC_DIR;
if (staticDir !== '' && !existsSync(join(staticDir, 'index.html'))) {
  console.error(
    `onkure: production start refused: no built app in ${staticDir}. Run \`npm run build\` first ` +
      '(or set STATIC_DIR= to serve the API only).',
  );
  process.exit(1);
}
runServer(root, env);
