/** Types of server-process.mjs (the start commands' shared part). */
import type { ChildProcess, StdioOptions } from 'node:child_process';

export function requireNode(): void;
export function isProductionEnv(value: string | undefined): boolean;
export const DEMO_MACHINE_FILE: string;
/** The Node options the server runs with (a 32 MB young generation). */
export const SERVER_NODE_OPTIONS: readonly string[];
export function spawnDemoAgent(
  root: string,
  agentDir: string,
  env: NodeJS.ProcessEnv,
  stdio?: StdioOptions,
): ChildProcess;
export function demoMachineFile(agentDir: string, withinMs?: number): Promise<boolean>;
export function runServer(
  root: string,
  env: NodeJS.ProcessEnv,
  options?: { demoAgent?: boolean; cleanup?: () => void },
): void;
