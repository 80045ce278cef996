/**
 * The package's own checks, run by `npm test` (test/package/package-checks.test.ts) on the built
 * package and, to show that each can fail, on broken copies of it:
 *
 *   publint   `publint --strict` on the packed tarball (what npm would publish)
 *   attw      Are the Types Wrong on the packed tarball: every entry's types and JavaScript resolve
 *             under Node16 (from ESM) and Bundler resolution (the package is ESM-only, so
 *             node10 and require() are out of its profile)
 *   api       API Extractor: each public entry's API report (api/<entry>.api.md); a change to the
 *             public API fails until the report is updated in the same commit (`--update`)
 *   size      size-limit: each entry, gzipped, with its dependencies left out (.size-limit.json)
 *   imports   the packages each entry's bundled module graph imports: onkure/domain none at all,
 *             onkure/application, onkure and onkure/testing only rxjs and inversify (no React, no zod,
 *             no adapter), onkure/infrastructure no React
 *
 * Usage: node scripts/check.mjs [--dir=<package dir>] [--only=publint,attw,…] [--entry=domain,…] [--update]
 * The package must be built (`npm run build`) first. Exits 1 with the reasons when a check fails.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key, value ?? true];
  }),
);
const pkgDir = resolve(typeof args.dir === 'string' ? args.dir : join(dirname(fileURLToPath(import.meta.url)), '..'));
const only = typeof args.only === 'string' ? new Set(args.only.split(',')) : null;
const update = args.update === true;
const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
/** The public entries: export path → the name of its report and the file of its types. */
const entries = Object.entries(pkg.exports)
  .filter(([, target]) => typeof target === 'object' && target.types)
  .map(([path, target]) => ({
    path,
    name: path === '.' ? 'index' : path.slice(2),
    types: target.types,
    js: target.default,
  }))
  .filter((entry) => typeof args.entry !== 'string' || args.entry.split(',').includes(entry.name));
const work = mkdtempSync(join(tmpdir(), 'onkure-package-check-'));
const failures = [];

function bin(name) {
  // The repository root's tools (the package is a workspace of it), whichever copy is being checked.
  return join(dirname(fileURLToPath(import.meta.url)), '../../../node_modules/.bin', name);
}

function packed() {
  const run = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
    cwd: pkgDir,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`npm pack failed:\n${run.stderr}`);
  return join(work, JSON.parse(run.stdout)[0].filename);
}

async function checkPublint(tarball) {
  const { publint } = await import('publint');
  const { formatMessage } = await import('publint/utils');
  const data = readFileSync(tarball);
  const result = await publint({
    pack: { tarball: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) },
    strict: true,
  });
  // --strict: warnings count as errors; suggestions are printed but do not fail.
  for (const message of result.messages) {
    const text = `${message.type}: ${formatMessage(message, result.pkg) ?? message.code}`;
    if (message.type === 'suggestion') console.log(`publint ${text}`);
    else failures.push(`publint ${text}`);
  }
  if (!result.messages.some((m) => m.type !== 'suggestion')) console.log('publint --strict: no error or warning');
}

function checkAttw(tarball) {
  const run = spawnSync(bin('attw'), [tarball, '--profile', 'esm-only', '--format', 'ascii', '--no-color'], {
    encoding: 'utf8',
  });
  if (run.status !== 0) failures.push(`attw found problems:\n${run.stdout}${run.stderr}`);
  else console.log(`attw: every entry resolves under node16 (from ESM) and bundler`);
}

async function checkApi() {
  const { Extractor, ExtractorConfig } = await import('@microsoft/api-extractor');
  if (update) mkdirSync(join(pkgDir, 'api'), { recursive: true });
  for (const entry of entries) {
    const config = ExtractorConfig.prepare({
      configObject: {
        projectFolder: pkgDir,
        mainEntryPointFilePath: join(pkgDir, entry.types),
        compiler: {
          overrideTsconfig: {
            compilerOptions: {
              target: 'ES2022',
              lib: ['ES2023', 'DOM', 'DOM.Iterable'],
              module: 'nodenext',
              moduleResolution: 'nodenext',
              strict: true,
              skipLibCheck: true,
              types: [],
            },
            files: [join(pkgDir, entry.types)],
          },
        },
        apiReport: {
          enabled: true,
          reportFileName: entry.name,
          reportFolder: join(pkgDir, 'api'),
          reportTempFolder: join(work, 'api'),
        },
        docModel: { enabled: false },
        dtsRollup: { enabled: false },
        tsdocMetadata: { enabled: false },
        messages: {
          compilerMessageReporting: { default: { logLevel: 'error' } },
          extractorMessageReporting: {
            default: { logLevel: 'none', addToApiReportFile: true },
            'ae-missing-release-tag': { logLevel: 'none', addToApiReportFile: false },
            // Notes that are not API changes and carry a declaration file's line number, which any
            // edit above it would move: a missing doc comment, and a type the entry's signatures
            // name without exporting it (domain types in application signatures: a consumer
            // imports them from onkure/domain; the signatures show them by name).
            'ae-undocumented': { logLevel: 'none', addToApiReportFile: false },
            'ae-forgotten-export': { logLevel: 'none', addToApiReportFile: false },
          },
          tsdocMessageReporting: { default: { logLevel: 'none', addToApiReportFile: false } },
        },
      },
      packageJsonFullPath: join(pkgDir, 'package.json'),
    });
    const messages = [];
    const result = Extractor.invoke(config, {
      localBuild: update,
      messageCallback: (message) => {
        if (message.logLevel === 'error' || message.logLevel === 'warning')
          messages.push(message.formatMessageWithLocation(pkgDir));
        message.handled = true;
      },
    });
    if (!result.succeeded || (!update && result.apiReportChanged)) {
      failures.push(
        `api: the public API of ${pkg.name}${entry.path === '.' ? '' : entry.path.slice(1)} differs from api/${entry.name}.api.md` +
          ` (run \`npm run api:update -w onkure\` and commit the report with the change)` +
          (messages.length ? `\n  ${messages.join('\n  ')}` : ''),
      );
    } else if (update && result.apiReportChanged) console.log(`api: api/${entry.name}.api.md updated`);
  }
}

function checkSize() {
  const run = spawnSync(bin('size-limit'), ['--json'], { cwd: pkgDir, encoding: 'utf8' });
  let results;
  try {
    results = JSON.parse(run.stdout);
  } catch {
    failures.push(`size-limit did not run:\n${run.stdout}${run.stderr}`);
    return;
  }
  for (const result of results) {
    const line = `${result.name}: ${(result.size / 1000).toFixed(1)} kB gzipped (budget ${(result.sizeLimit / 1000).toFixed(1)} kB)`;
    if (result.passed) console.log(`size ${line}`);
    else failures.push(`size: over budget: ${line}`);
  }
}

/** Packages an entry may import (its whole module graph, bundled), by entry name. */
const CORE = ['rxjs', 'inversify'];
const ADAPTERS = [...CORE, 'reflect-metadata', 'ky', 'zod', 'socket.io-client', 'sora-js-sdk', 'hls.js'];
const ALLOWED_IMPORTS = {
  domain: [],
  application: CORE,
  index: CORE,
  testing: CORE,
  infrastructure: ADAPTERS,
  react: [...ADAPTERS, 'react', 'react-dom', 'react-router'],
};

async function checkImports() {
  const { build } = await import('esbuild');
  for (const entry of entries.filter((e) => e.name in ALLOWED_IMPORTS)) {
    const result = await build({
      entryPoints: [join(pkgDir, entry.js)],
      bundle: true,
      write: false,
      metafile: true,
      format: 'esm',
      platform: 'neutral',
      packages: 'external',
      logLevel: 'silent',
    });
    const imported = new Set();
    for (const input of Object.values(result.metafile.inputs))
      for (const imp of input.imports)
        if (imp.external) imported.add(imp.path.replace(/^(@[^/]+\/[^/]+|[^/]+).*$/, '$1'));
    const extra = [...imported].filter((name) => !ALLOWED_IMPORTS[entry.name].includes(name));
    if (extra.length)
      failures.push(
        `imports: ${entry.path} imports ${extra.join(', ')} (allowed: ${ALLOWED_IMPORTS[entry.name].join(', ') || 'nothing'})`,
      );
    else console.log(`imports ${entry.path}: ${[...imported].sort().join(', ') || 'nothing'}`);
  }
}

try {
  const wants = (name) => !only || only.has(name);
  const tarball = wants('publint') || wants('attw') ? packed() : null;
  if (wants('publint')) await checkPublint(tarball);
  if (wants('attw')) checkAttw(tarball);
  if (wants('api')) await checkApi();
  if (wants('size')) checkSize();
  if (wants('imports')) await checkImports();
} finally {
  rmSync(work, { recursive: true, force: true });
}
if (failures.length) {
  console.error(
    `${pkg.name}: ${failures.length} package check(s) failed:\n${failures.map((f) => `- ${f}`).join('\n')}`,
  );
  process.exit(1);
}
console.log(`${pkg.name}: package checks passed`);
