import { execFile, spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playableStation } from '../support/stations';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser } from '../support/users';

const root = resolve(__dirname, '../..');
/** The library's own package: an npm workspace of the repository (the root is the app and the server). */
const pkgDir = join(root, 'packages/onkure');
const tsc = join(root, 'node_modules/typescript/bin/tsc');

/** Builds the package (dist/) the way `npm pack` would, so its `exports` resolve. */
beforeAll(() => {
  const build = spawnSync('npm', ['run', '--silent', 'build:lib'], { cwd: root, encoding: 'utf8', timeout: 180_000 });
  if (build.status !== 0) throw new Error(`build:lib failed:\n${build.stdout}\n${build.stderr}`);
}, 240_000);

function plainNode(script: string) {
  // A separate `node` process: no Vitest, no jsdom, no DOM globals; `onkure/domain` resolves through
  // the workspace link (node_modules/onkure → packages/onkure) and the package's exports.
  return spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
}

describe('the onkure/domain entry from npm', () => {
  it('imports in plain Node with no DOM and computes rules', () => {
    const run = plainNode(`
      import * as domain from 'onkure/domain';
      const out = {
        // Node 21 and later have a navigator of their own (hardwareConcurrency, userAgent "Node.js/…"),
        // not a browser's: the check is that no DOM is there.
        dom: [typeof window, typeof document, typeof HTMLElement, typeof globalThis.navigator?.sendBeacon].join(','),
        nodeNavigator: typeof navigator === 'undefined' || navigator.userAgent.startsWith('Node.js'),
        fee: domain.deliveryFeeTc('kuji', 16),
        target: domain.parseBuildTarget('yahoo'),
        tc: domain.tcInfo(1200, 300).tc_all,
        bonus: domain.bonusLabel(12500),
      };
      console.log(JSON.stringify(out));
    `);
    expect(run.stderr).toBe('');
    const out = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(out.dom).toBe('undefined,undefined,undefined,undefined');
    expect(out.nodeNavigator).toBe(true);
    expect(out.fee).toBe(16000);
    expect(out.target).toEqual({ ok: true, target: 'yahoo' });
    expect(out.tc).toBe(1500);
    expect(out.bonus).toBe('12,500ボーナス');
  });
});

/** Installed sizes: the files' own bytes (du --apparent-size), not the disk blocks they take. */
function bytesUnder(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = statSync(path);
    total += stat.isDirectory() ? bytesUnder(path) : stat.size;
  }
  return total;
}

function filesUnder(dir: string, match: (name: string) => boolean, found: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) filesUnder(path, match, found);
    else if (match(name)) found.push(path);
  }
  return found;
}

/** A library user's strict Node16 project over `files`: no skipLibCheck, no ambient types. */
const tsconfig = (lib: string[], files: string[]) =>
  JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      lib,
      module: 'nodenext',
      moduleResolution: 'nodenext',
      strict: true,
      skipLibCheck: false,
      noEmit: true,
      types: [],
    },
    files,
  });

/** Packages a library user must never get from the core: the server's, native code and tools. */
const SERVER_PACKAGES = [
  'fastify',
  'pg',
  '@electric-sql/pglite',
  '@napi-rs/canvas',
  'werift',
  'tsx',
  'esbuild',
  '@ffmpeg-installer/ffmpeg',
  '@ffmpeg-installer/linux-x64',
  'socket.io',
  'prom-client',
  'hls.js',
  'react',
  'react-dom',
  'react-router',
  '@types/react',
];
/**
 * The installed size's budget (the files' bytes). The issue asked for ≤ 15 MB; the dependencies it
 * names bring 15.1 MB on their own (zod 6.2 MB and rxjs 4.5 MB ship every build of themselves) and
 * the package is 4.2 MB, so the budget is their sum with a little room; docs/library.md has the table.
 */
const INSTALLED_BUDGET_BYTES = 20_000_000;

describe('the packed package installed in an empty folder with only its declared dependencies', () => {
  let project: string;
  let server: TestServer;

  beforeAll(async () => {
    // What npm would publish (`npm pack`; the package is built above), installed the way a library
    // user installs it: `npm install <tarball>` in a fresh project outside the repository, so only
    // the package's declared dependencies are there (from npm's cache when it has them).
    project = mkdtempSync(join(tmpdir(), 'onkure-consumer-'));
    const packed = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', project], {
      cwd: pkgDir,
      encoding: 'utf8',
    });
    if (packed.status !== 0) throw new Error(`npm pack failed:\n${packed.stderr}`);
    const { filename } = (JSON.parse(packed.stdout) as { filename: string }[])[0]!;
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'onkure-consumer', private: true, type: 'module' }),
    );
    const install = spawnSync(
      'npm',
      ['install', `./${filename}`, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'],
      { cwd: project, encoding: 'utf8', timeout: 180_000 },
    );
    if (install.status !== 0) throw new Error(`npm install of the tarball failed:\n${install.stderr}`);
    server = await startTestServer({ listen: true, inMemory: true, env: { ONKURE_DEV_CALLS: '1' } });
  }, 240_000);
  afterAll(async () => {
    await server?.close();
    if (project) rmSync(project, { recursive: true, force: true });
  });

  let examplesFolder: string | null = null;
  /** The examples folder as a library user has it: its own package.json, the tarball installed. */
  function installedExamples(): string {
    if (examplesFolder) return examplesFolder;
    const examples = join(project, 'examples');
    cpSync(join(root, 'examples'), examples, {
      recursive: true,
      filter: (src) => !/node_modules|dist|meta\.json/.test(src),
    });
    const tarball = readdirSync(project).find((name) => name.endsWith('.tgz'))!;
    const install = spawnSync(
      'npm',
      ['install', `../${tarball}`, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'],
      { cwd: examples, encoding: 'utf8', timeout: 180_000 },
    );
    expect(install.stderr).toBe('');
    expect(install.status).toBe(0);
    examplesFolder = examples;
    return examples;
  }

  it('brings no server package, no native binary and no React, and stays within its size budget', () => {
    const modules = join(project, 'node_modules');
    // npm's record of what it installed (every package folder, nested ones too).
    const lock = JSON.parse(readFileSync(join(modules, '.package-lock.json'), 'utf8')) as {
      packages: Record<string, unknown>;
    };
    const names = new Set(Object.keys(lock.packages).map((path) => path.replace(/^.*node_modules\//, '')));
    expect([...names]).toEqual(expect.arrayContaining(['onkure', 'rxjs', 'inversify', 'zod', 'socket.io-client']));
    expect([...names].filter((name) => SERVER_PACKAGES.includes(name))).toEqual([]);
    expect(filesUnder(modules, (name) => name.endsWith('.node'))).toEqual([]);
    expect(existsSync(join(modules, '@types/react'))).toBe(false);
    const bytes = bytesUnder(modules);
    console.log(`installed: ${names.size} packages, ${(bytes / 1e6).toFixed(1)} MB`);
    expect(bytes).toBeLessThanOrEqual(INSTALLED_BUDGET_BYTES);
  });

  it('compiles a TypeScript file importing every public entry but react, with no React types present (Node16 resolution, no skipLibCheck)', () => {
    writeFileSync(
      join(project, 'entries.ts'),
      `import * as core from 'onkure';
import * as domain from 'onkure/domain';
import * as application from 'onkure/application';
import * as infrastructure from 'onkure/infrastructure';
import * as testing from 'onkure/testing';

const fee: number = domain.deliveryFeeTc('kuji', 16);
const token: symbol = application.TOKENS.BrowseTopPage;
const client: infrastructure.OnkureClient = infrastructure.createOnkureClient({ apiBase: 'https://onkure.example/api/' });
const clock: { now(): number } = new testing.ManualClock(0);
export const used = [core, fee, token, client, clock];
`,
    );
    writeFileSync(join(project, 'tsconfig.json'), tsconfig(['ES2023', 'DOM', 'DOM.Iterable'], ['entries.ts']));
    const run = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project, encoding: 'utf8' });
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);

    // The rules and the use-cases need no DOM: their types compile with the ES library alone, and
    // the timers every JavaScript runtime has (rxjs's scheduler types name setTimeout).
    writeFileSync(
      join(project, 'timers.d.ts'),
      `declare function setTimeout(handler: (...args: unknown[]) => void, timeout?: number, ...args: unknown[]): unknown;
declare function clearTimeout(handle: unknown): void;
declare function setInterval(handler: (...args: unknown[]) => void, timeout?: number, ...args: unknown[]): unknown;
declare function clearInterval(handle: unknown): void;
`,
    );
    writeFileSync(
      join(project, 'core.ts'),
      `import { deliveryFeeTc } from 'onkure/domain';
import { TOKENS } from 'onkure/application';
import * as core from 'onkure';
export const used = [deliveryFeeTc('kuji', 16), TOKENS.BrowseTopPage, core];
`,
    );
    writeFileSync(join(project, 'tsconfig.core.json'), tsconfig(['ES2023'], ['timers.d.ts', 'core.ts']));
    const noDom = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.core.json'], { cwd: project, encoding: 'utf8' });
    expect(noDom.stdout + noDom.stderr).toBe('');
    expect(noDom.status).toBe(0);
  }, 120_000);

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

  it("examples/follow-line.mjs follows a station's line in the terminal from the packed package: the numbers now, then a player's place taken, pushed", async () => {
    const examples = installedExamples();
    const { station_id } = await playableStation(server);
    const follower = spawn(
      process.execPath,
      ['follow-line.mjs', String(station_id), `--api=${server.apiBase}`, '--changes=1'],
      {
        cwd: examples,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    follower.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((done) => follower.once('exit', (code) => done(code)));
    try {
      const firstLine = new Promise<string>((done) =>
        follower.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          if (stdout.includes('\n')) done(stdout.split('\n')[0]!);
        }),
      );
      expect(await firstLine).toBe(`ステーション ${station_id}: 営業中 / 待ち 0人 / 視聴 0人`);

      // A player takes a place in the line: the top channel pushes the station's new numbers.
      const player = await createTestUser(server, { birth: '1990-01-01' }, { freeTc: 10_000 });
      const reserve = await fetch(`${server.apiBase}v2/play/reserve`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user_id: player.user_id, access_token: player.access_token, station_id }),
      });
      expect(((await reserve.json()) as { error_code: number }).error_code).toBe(200);
      // The push comes within a second (one lobby update a station a second at most); a follower
      // that never hears it is stopped at 60 s so the failure shows what it printed.
      const stopAt = setTimeout(() => follower.kill(), 60_000);
      const code = await exited;
      clearTimeout(stopAt);
      expect({ code, stdout, stderr }).toMatchObject({ code: 0 });
      expect(stderr).toBe('');
      expect(stdout.trim().split('\n')).toEqual([
        `ステーション ${station_id}: 営業中 / 待ち 0人 / 視聴 0人`,
        `ステーション ${station_id}: 営業中 / 待ち 1人 / 視聴 0人`,
      ]);
    } finally {
      follower.kill();
      await exited;
    }
  }, 240_000);

  it('examples/station-widget (a Web Component, no React) type-checks against the installed package alone and builds', () => {
    const examples = installedExamples();
    const widget = join(examples, 'station-widget');
    expect(existsSync(join(examples, 'node_modules/react'))).toBe(false);
    expect(existsSync(join(examples, 'node_modules/@types/react'))).toBe(false);
    writeFileSync(
      join(widget, 'tsconfig.json'),
      tsconfig(['ES2023', 'DOM', 'DOM.Iterable'], ['onkure-station.ts', 'minimal-station.ts']),
    );
    const check = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: widget, encoding: 'utf8' });
    expect(check.stdout + check.stderr).toBe('');
    expect(check.status).toBe(0);
    const build = spawnSync(process.execPath, ['build.mjs'], { cwd: widget, encoding: 'utf8' });
    expect(build.stderr).toBe('');
    expect(build.stdout).toMatch(/^station widget: \d+ files, [\d.]+ kB in /);
    const meta = JSON.parse(readFileSync(join(widget, 'meta.json'), 'utf8')) as { inputs: Record<string, unknown> };
    const inputs = Object.keys(meta.inputs);
    expect(inputs.some((input) => input.includes('node_modules/onkure/dist/'))).toBe(true);
    expect(inputs.filter((input) => /node_modules\/(react|react-dom|react-router|hls\.js)\//.test(input))).toEqual([]);

    // docs/build-your-own-ui.md walks through the minimal widget: the file this test compiled, whole, in under 50 lines.
    const minimal = readFileSync(join(root, 'examples/station-widget/minimal-station.ts'), 'utf8');
    expect(minimal.trimEnd().split('\n').length).toBeLessThan(50);
    expect(readFileSync(join(root, 'docs/build-your-own-ui.md'), 'utf8')).toContain(minimal);
  }, 120_000);

  it('ships type declarations for every entry', () => {
    const pkg = JSON.parse(readFileSync(join(project, 'node_modules', 'onkure', 'package.json'), 'utf8')) as {
      exports: Record<string, { types?: string }>;
    };
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
      expect(statSync(join(project, 'node_modules', 'onkure', entry.types!)).size).toBeGreaterThan(0);
    }
  });
});

describe('the package checks npm test runs (packages/onkure/scripts/check.mjs)', () => {
  const check = join(pkgDir, 'scripts/check.mjs');
  const runCheck = (args: string[]) =>
    spawnSync(process.execPath, [check, ...args], { cwd: pkgDir, encoding: 'utf8', timeout: 300_000 });

  it("passes on the package as built: publint --strict, attw, the API reports, the size budgets and the entries' imports", () => {
    const run = runCheck([]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('publint --strict: no error or warning');
    expect(run.stdout).toContain('attw: every entry resolves under node16 (from ESM) and bundler');
    expect(run.stdout).toMatch(/size onkure\/domain: [\d.]+ kB gzipped \(budget [\d.]+ kB\)/);
    expect(run.stdout).toContain('imports ./domain: nothing');
    expect(run.stdout).toContain('imports ./application: inversify, rxjs');
    expect(run.stdout).toContain('onkure: package checks passed');
  }, 300_000);

  describe('each check fails on a copy of the package broken the way it guards against', () => {
    let copy: string;
    beforeAll(() => {
      // Inside the repository (its tmp/ is ignored by git), so the copy resolves the same
      // dependencies from the root's node_modules as the package does.
      mkdirSync(join(root, 'tmp'), { recursive: true });
      copy = mkdtempSync(join(root, 'tmp', 'onkure-broken-'));
      for (const name of ['package.json', 'README.md', 'CHANGELOG.md', '.size-limit.json', 'api', 'dist'])
        if (existsSync(join(pkgDir, name))) cpSync(join(pkgDir, name), join(copy, name), { recursive: true });
    });
    afterAll(() => {
      if (copy) rmSync(copy, { recursive: true, force: true });
    });
    /** Breaks one file of the copy for one check's run, then puts it back. */
    const broken = (file: string, change: (text: string) => string, args: string[]) => {
      const before = readFileSync(join(copy, file), 'utf8');
      const after = change(before);
      expect(after).not.toBe(before);
      writeFileSync(join(copy, file), after);
      try {
        return runCheck([`--dir=${copy}`, ...args]);
      } finally {
        writeFileSync(join(copy, file), before);
      }
    };

    it('publint --strict: an export whose types file is not in the package', () => {
      const run = broken(
        'package.json',
        (text) => text.replace('./dist/types/testing/index.d.ts', './dist/types/testing/missing.d.ts'),
        ['--only=publint'],
      );
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/publint error: .*missing\.d\.ts/);
    }, 120_000);

    it('attw: declarations whose relative imports Node16 cannot resolve (no .js)', () => {
      const run = broken('dist/types/domain/index.d.ts', (text) => text.replace(/from '(\.[^']*)\.js'/g, "from '$1'"), [
        '--only=attw',
      ]);
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('attw found problems');
      expect(run.stderr).toMatch(/onkure\/domain[\s\S]*node16 \(from ESM\)/);
    }, 120_000);

    it('api: a public API change with its report not updated', () => {
      const run = broken(
        'dist/types/domain/build-target.d.ts',
        (text) => `${text}\n/** Added without its report. */\nexport declare function unreportedRule(): number;\n`,
        ['--only=api', '--entry=domain'],
      );
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('api: the public API of onkure/domain differs from api/domain.api.md');
    }, 120_000);

    it('size: an entry over its gzipped budget', () => {
      const run = broken(
        '.size-limit.json',
        (text) => text.replace(/("name": "onkure\/domain",[\s\S]*?"limit": )"[^"]*"/, '$1"1 kB"'),
        ['--only=size'],
      );
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/size: over budget: onkure\/domain: [\d.]+ kB gzipped \(budget 1\.0 kB\)/);
    }, 120_000);

    it('imports: onkure/domain importing a package (zod)', () => {
      const run = broken('dist/domain.js', (text) => `import 'zod/mini';\n${text}`, ['--only=imports']);
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('imports: ./domain imports zod (allowed: nothing)');
    }, 120_000);
  });
});
