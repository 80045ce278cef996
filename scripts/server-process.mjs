// What the two start commands share: the Node.js check, the production rule and the server process.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** Stops with a clear message on a Node.js older than 20.19. */
export function requireNode() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19)) {
    console.error(`onkure needs Node.js 20.19 or newer (this is ${process.versions.node}).`);
    process.exit(1);
  }
}

/**
 * NODE_ENV names production in any case and with stray spaces ("Production", " PRODUCTION").
 * server/config.ts isProductionEnv applies the same rule inside the server.
 */
export function isProductionEnv(value) {
  return (value ?? '').trim().toLowerCase() === 'production';
}

/** Runs server/main.ts under `env`, passing SIGINT/SIGTERM on and exiting with its code. */
export function runServer(root, env) {
  const server = spawn(process.execPath, ['--import', 'tsx', join(root, 'server/main.ts')], {
    cwd: root,
    stdio: 'inherit',
    env,
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
  server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
