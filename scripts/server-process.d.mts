/** Types of server-process.mjs (the start commands' shared part). */
export function requireNode(): void;
export function isProductionEnv(value: string | undefined): boolean;
export function runServer(
  root: string,
  env: NodeJS.ProcessEnv,
  options?: { demoAgent?: boolean; cleanup?: () => void },
): void;
