import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../..');
const depcruise = join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Runs the project's own layer check over a small tree of files written for the test. */
function cruise(files: Record<string, string>): { status: number | null; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'onkure-layers-'));
  dirs.push(dir);
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'bundler' } }),
  );
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const roots = ['src', 'server'].filter((folder) => Object.keys(files).some((path) => path.startsWith(`${folder}/`)));
  const run = spawnSync(process.execPath, [depcruise, ...roots, '--config', join(root, '.dependency-cruiser.cjs')], {
    cwd: dir,
    encoding: 'utf8',
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

const clean = {
  'src/domain/fee.ts': 'export const fee = (n: number) => n * 8000;\n',
  'src/application/port.ts': "import { fee } from '../domain/fee';\nexport interface Port { f: typeof fee }\n",
  'src/infrastructure/adapter.ts':
    "import type { Port } from '../application/port';\nimport { fee } from '../domain/fee';\nexport const adapter: Port = { f: fee };\n",
  'src/ui/page.ts': "import type { Port } from '../application/port';\nexport const page = (p: Port) => p.f(1);\n",
  'src/main/root.ts':
    "import { adapter } from '../infrastructure/adapter';\nimport { page } from '../ui/page';\nexport const run = () => page(adapter);\n",
};

describe('the layer rule (dependency-cruiser, run by npm test)', () => {
  it('passes a tree that keeps the layers', () => {
    const result = cruise(clean);
    expect(result.output).toContain('no dependency violations');
    expect(result.status).toBe(0);
  });

  it('fails when the domain imports another layer', () => {
    const result = cruise({
      ...clean,
      'src/domain/bad.ts': "import { adapter } from '../infrastructure/adapter';\nexport const x = adapter;\n",
    });
    expect(result.status).not.toBe(0);
    expect(result.output).toContain('domain-is-pure');
  });

  it('fails when the domain imports a Node built-in', () => {
    const result = cruise({
      ...clean,
      'src/domain/clock.ts': "import { performance } from 'node:perf_hooks';\nexport const t = performance;\n",
    });
    expect(result.status).not.toBe(0);
    expect(result.output).toContain('domain-is-pure');
  });

  it('fails when the UI imports an adapter', () => {
    const result = cruise({
      ...clean,
      'src/ui/bad.ts': "import { adapter } from '../infrastructure/adapter';\nexport const y = adapter;\n",
    });
    expect(result.status).not.toBe(0);
    expect(result.output).toContain('ui-never-imports-adapters');
  });

  it('fails when anything but src/main binds an adapter', () => {
    const result = cruise({
      ...clean,
      'src/application/bad.ts': "import { adapter } from '../infrastructure/adapter';\nexport const z = adapter;\n",
    });
    expect(result.status).not.toBe(0);
    expect(result.output).toContain('only-main-binds-adapters');
  });

  const server = {
    ...clean,
    'server/routes/images.routes.ts':
      "import { imageUrl } from '../catalogue/image-url';\nexport const routes = imageUrl;\n",
    'server/catalogue/image-url.ts': 'export const imageUrl = (key: string) => `/images/${key}.svg`;\n',
    'server/services.ts': "import { imageUrl } from './catalogue/image-url';\nexport const services = imageUrl;\n",
    'server/composition/api.plugin.ts':
      "import { routes } from '../routes/images.routes';\nexport const apiPlugin = routes;\n",
  };

  it('passes a server whose routes only its API part registers', () => {
    const result = cruise(server);
    expect(result.output).toContain('no dependency violations');
    expect(result.status).toBe(0);
  });

  it('fails when a server module other than the API part imports a route module', () => {
    const result = cruise({
      ...server,
      'server/services.ts': "import { routes } from './routes/images.routes';\nexport const services = routes;\n",
    });
    expect(result.status).not.toBe(0);
    expect(result.output).toContain('server-routes-are-registered-by-the-app-only');
  });
});
