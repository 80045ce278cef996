#!/usr/bin/env node
// The e2e run's server (playwright.config.ts): the reference server on a data folder of its own,
// removed when the server ends. Playwright stops the process group with SIGTERM (its
// gracefulShutdown): the server closes its store, then this removes the folder. E2E_DATA_DIR names a
// folder to keep instead.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const kept = process.env.E2E_DATA_DIR;
const dataDir = kept ?? mkdtempSync(join(tmpdir(), 'onkure-e2e-'));
const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
  env: { ...process.env, DATA_DIR: dataDir },
  stdio: 'inherit',
});
// The signal reaches the server too (one process group): this waits for it to end.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => undefined);
server.on('exit', (code, signal) => {
  if (!kept) rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? (signal ? 1 : 0));
});
