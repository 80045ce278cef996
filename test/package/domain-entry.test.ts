import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../..');

/** Builds the npm library (dist/lib) the way `npm pack` would, so the package's `exports` resolve. */
beforeAll(() => {
  const build = spawnSync('npm', ['run', '--silent', 'build:lib'], { cwd: root, encoding: 'utf8', timeout: 120_000 });
  if (build.status !== 0) throw new Error(`build:lib failed:\n${build.stdout}\n${build.stderr}`);
}, 180_000);

function plainNode(script: string) {
  // A separate `node` process: no Vitest, no jsdom, no DOM globals; `onkure/domain` resolves through
  // package.json's exports (a package may import itself by name).
  return spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
}

describe('the onkure/domain entry from npm', () => {
  it('imports in plain Node with no DOM and computes rules', () => {
    const run = plainNode(`
      import * as domain from 'onkure/domain';
      const out = {
        dom: typeof window + ',' + typeof document + ',' + typeof navigator,
        fee: domain.deliveryFeeTc('kuji', 16),
        target: domain.parseBuildTarget('yahoo'),
        tc: domain.tcInfo(1200, 300).tc_all,
        bonus: domain.bonusLabel(12500),
      };
      console.log(JSON.stringify(out));
    `);
    expect(run.stderr).toBe('');
    const out = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(out.dom).toBe('undefined,undefined,undefined');
    expect(out.fee).toBe(16000);
    expect(out.target).toEqual({ ok: true, target: 'yahoo' });
    expect(out.tc).toBe(1500);
    expect(out.bonus).toBe('12,500ボーナス');
  });

  it('ships type declarations for the domain entry', () => {
    const run = plainNode(`
      import { readFileSync } from 'node:fs';
      const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
      const types = pkg.exports['./domain'].types;
      console.log(readFileSync(types, 'utf8').includes("export * from './build-target'") ? 'ok' : 'missing');
    `);
    expect(run.stdout.trim()).toBe('ok');
  });
});
