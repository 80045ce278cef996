#!/usr/bin/env node
// The e2e run's server (playwright.config.ts): the reference server on a data folder of its own,
// removed when the server ends, and the demo's sim agent as a process of its own driving every
// station over the real protocol (scripts/server-process.mjs). Playwright waits for
// /healthz/agents (every station's agent connected) and stops the process group with SIGTERM
// (its gracefulShutdown): the server closes its store, the agent releases its outputs, then this
// removes the folders. E2E_DATA_DIR names a data folder to keep instead.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runServer } from './server-process.mjs';

const root = new URL('..', import.meta.url).pathname;
const kept = process.env.E2E_DATA_DIR;
const dataDir = kept ?? mkdtempSync(join(tmpdir(), 'onkure-e2e-'));
runServer(
  root,
  { ...process.env, DATA_DIR: dataDir },
  { demoAgent: true, cleanup: () => kept || rmSync(dataDir, { recursive: true, force: true }) },
);
