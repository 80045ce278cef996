import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILD_TARGETS, isNativeApp, parseBuildTarget } from '../../src/domain';

const root = resolve(__dirname, '../..');
const ALLOWED = 'web, ios, android, yahoo, mobage';

function run(args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, args, {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 60_000,
  });
}

describe('build target setting ONKURE_TARGET', () => {
  it('[R1-1] accepts exactly web, ios, android, yahoo and mobage, defaulting to web', () => {
    expect(BUILD_TARGETS).toEqual(['web', 'ios', 'android', 'yahoo', 'mobage']);
    for (const target of BUILD_TARGETS) expect(parseBuildTarget(target)).toEqual({ ok: true, target });
    expect(parseBuildTarget(undefined)).toEqual({ ok: true, target: 'web' });
    expect(parseBuildTarget('')).toEqual({ ok: true, target: 'web' });
    const bad = parseBuildTarget('windows');
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.message).toContain(ALLOWED);
  });

  it('[R1-1] counts ios and android as the native app', () => {
    expect(BUILD_TARGETS.filter(isNativeApp)).toEqual(['ios', 'android']);
  });

  it('[R1-1] an invalid target stops the build with a message naming the allowed values', () => {
    const result = run(
      [
        resolve(root, 'node_modules/vite/bin/vite.js'),
        'build',
        '--outDir',
        resolve(root, 'node_modules/.cache/never-built'),
      ],
      { ONKURE_TARGET: 'pc' },
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`ONKURE_TARGET must be one of ${ALLOWED} (got "pc")`);
  });

  it('[R1-1] an invalid target stops the server start with the same message', () => {
    const result = run(['--import', 'tsx', resolve(root, 'server/main.ts')], {
      ONKURE_TARGET: 'WEB',
      PORT: '0',
      DATA_DIR: ':memory:',
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`ONKURE_TARGET must be one of ${ALLOWED} (got "WEB")`);
  });
});
