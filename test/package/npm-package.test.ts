import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server';

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

describe('the packed package in another project, in plain Node, against a running reference server', () => {
  let project: string;
  let server: TestServer;

  beforeAll(async () => {
    // What npm would publish: `npm pack` (the library is built above), unpacked as a dependency of a
    // fresh project. The project's other dependencies are the repository's installed packages.
    project = mkdtempSync(join(tmpdir(), 'onkure-consumer-'));
    const packed = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', project], {
      cwd: root,
      encoding: 'utf8',
    });
    if (packed.status !== 0) throw new Error(`npm pack failed:\n${packed.stderr}`);
    const { filename } = (JSON.parse(packed.stdout) as { filename: string }[])[0]!;
    const modules = join(project, 'node_modules');
    mkdirSync(modules);
    for (const name of readdirSync(join(root, 'node_modules'))) {
      if (name !== '.bin' && name !== 'onkure' && !name.startsWith('.'))
        symlinkSync(join(root, 'node_modules', name), join(modules, name));
    }
    const untar = spawnSync('tar', ['-xzf', join(project, filename), '-C', project], { encoding: 'utf8' });
    if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr}`);
    renameSync(join(project, 'package'), join(modules, 'onkure'));
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'onkure-consumer', private: true, type: 'module' }),
    );
    server = await startTestServer({ listen: true, inMemory: true, env: { ONKURE_DEV_CALLS: '1' } });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    if (project) rmSync(project, { recursive: true, force: true });
  });

  it("signs in with the debug login, reads the top page through the use-case and a station's reserve status, with no DOM", async () => {
    writeFileSync(
      join(project, 'consumer.mjs'),
      `
      import { firstValueFrom, filter } from 'rxjs';
      import { TOKENS } from 'onkure/application';
      import { createOnkureClient } from 'onkure/infrastructure';
      import { aStation } from 'onkure/testing';

      const client = createOnkureClient({ apiBase: process.env.ONKURE_API_BASE, shopId: 1 });
      const signedIn = await firstValueFrom(client.get(TOKENS.AuthPort).debugLogIn('consumer'));
      const top = client.get(TOKENS.BrowseTopPage);
      const loaded = firstValueFrom(top.state$.pipe(filter((s) => s.kind === 'loaded' || s.kind === 'error')));
      top.load();
      const state = await loaded;
      if (state.kind !== 'loaded') throw state.error;
      const stations = state.catalogue.sale_list.flatMap((row) => row.list);
      const station = stations.find((s) => s.station_status === 'open' && s.type === 'normal');
      const reserve = await firstValueFrom(client.get(TOKENS.ReservationPort).currentReservation({ stationId: station.station_id }));
      top.dispose();
      console.log(JSON.stringify({
        dom: typeof window + ',' + typeof document,
        signedIn: signedIn.identity.user_id > 0 && client.get(TOKENS.SessionPort).current()?.user_id === signedIn.identity.user_id,
        stations: stations.length,
        station,
        reserve,
        disposed: top.disposed,
        factory: aStation({ station_status: 'maintenance' }).station_status,
      }));
    `,
    );
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['consumer.mjs'], {
      cwd: project,
      encoding: 'utf8',
      env: { ...process.env, ONKURE_API_BASE: server.apiBase },
    });
    expect(stderr).toBe('');
    const out = JSON.parse(stdout) as {
      dom: string;
      signedIn: boolean;
      stations: number;
      station: { station_id: number; prize_name: string };
      reserve: { kind: string; info?: Record<string, unknown> };
      disposed: boolean;
      factory: string;
    };
    expect(out.dom).toBe('undefined,undefined');
    expect(out.signedIn).toBe(true);
    expect(out.stations).toBeGreaterThanOrEqual(30);
    // A seeded prize: Japanese text from the server, not from the package.
    expect(out.station.prize_name).toMatch(/[\u3040-\u30ff]/);
    expect(out.reserve.kind).toBe('reservation');
    expect(out.reserve.info).toMatchObject({
      station_id: out.station.station_id,
      reserve_status: null,
      reserve_num: 0,
    });
    expect(out.disposed).toBe(true);
    expect(out.factory).toBe('maintenance');
  }, 60_000);

  it('ships type declarations for every entry', () => {
    const pkg = JSON.parse(
      spawnSync('cat', [join(project, 'node_modules', 'onkure', 'package.json')], { encoding: 'utf8' }).stdout,
    ) as { exports: Record<string, { types?: string }> };
    const entries = Object.entries(pkg.exports).filter(([, e]) => typeof e === 'object' && e.types);
    expect(entries.map(([name]) => name).sort()).toEqual([
      '.',
      './application',
      './domain',
      './infrastructure',
      './react',
      './testing',
    ]);
    for (const [, entry] of entries) {
      expect(spawnSync('test', ['-s', join(project, 'node_modules', 'onkure', entry.types!)]).status).toBe(0);
    }
  });
});
