import { availableParallelism } from 'node:os';
import path from 'node:path';
import { build, loadEnv, type Plugin, type ResolvedConfig } from 'vite';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { resolveBuildTargetOrExit } from './scripts/build-target.ts';
// What the page's entry looks for: the app's module preload, and the inert templates holding the preloads.
import { APP_LINK_ATTRIBUTE, SCRIPTS_TEMPLATE_ATTRIBUTE } from './src/main/lead-picture.ts';

// The build target is fixed at build time [R1-1]: an invalid ONKURE_TARGET stops the build
// with a message that names the allowed values.
const target = resolveBuildTargetOrExit(process.env.ONKURE_TARGET, 'build');

/**
 * Writes the build's public settings (its VITE_* variables, and the build target) into the built
 * page, so the server renders each page with the same settings the browser app was built with
 * (src/main/server-render.tsx). They are public anyway: the bundle holds them too.
 */
function buildSettings(): Plugin {
  let settings: Record<string, string> = {};
  return {
    name: 'onkure-build-settings',
    configResolved(config) {
      settings = { ...loadEnv(config.mode, config.envDir || process.cwd(), 'VITE_'), VITE_ONKURE_TARGET: target };
    },
    transformIndexHtml: {
      order: 'post',
      handler: () => [
        {
          tag: 'script',
          attrs: { type: 'application/json', id: 'onkure-build' },
          children: JSON.stringify(settings).replace(/</g, '\\u003c'),
          injectTo: 'head',
        },
      ],
    },
  };
}

/**
 * Writes the build manifest (build.json): the entry script's address, which names the build. A page
 * left open compares it with its own every hour and moves to a new build between pages [R9-13].
 */
function buildManifest(): Plugin {
  return {
    name: 'onkure-build-manifest',
    apply: 'build',
    generateBundle(_options, bundle) {
      // The chunk that holds the browser entry's code: its `import.meta.url` is the address the page
      // compares (src/main/browser.tsx). With the entry's modules grouped into one chunk, the entry
      // chunk itself is only a facade that the HTML build drops.
      const entry = Object.values(bundle).find(
        (file) => file.type === 'chunk' && Object.keys(file.modules).some((id) => id.endsWith('/src/main/browser.tsx')),
      );
      if (!entry) return;
      this.emitFile({ type: 'asset', fileName: 'build.json', source: JSON.stringify({ entry: `/${entry.fileName}` }) });
    },
  };
}

/** The app's module (index.html's script) and the page's entry, which starts it (src/main/boot.ts). */
const APP_MODULE = path.resolve(import.meta.dirname, 'src/main/browser.tsx');
const BOOT_MODULE = path.resolve(import.meta.dirname, 'src/main/boot.ts');
/** The modules of the page's entry: it runs before the app, and shares nothing with it. */
const BOOT_MODULES = [BOOT_MODULE, path.resolve(import.meta.dirname, 'src/main/lead-picture.ts')];

/**
 * The page starts with a small entry (src/main/boot.ts) instead of the app (issue 27). The app's
 * script, which index.html names, becomes a module preload marked `data-onkure-app`, and it and
 * its chunks' preloads are put in an inert <template>: nothing is fetched until the entry, built
 * on its own, moves them into the head once the page's lead pictures are shown, so that no script
 * competes with those pictures for a slow network's first bytes; it then runs the app. The app
 * and its chunks come out exactly as they would without it.
 */
function bootEntry(): Plugin {
  let enabled = false;
  return {
    name: 'onkure-boot-entry',
    apply: 'build',
    configResolved(config) {
      enabled = !config.build.ssr && !config.build.lib;
    },
    buildStart() {
      if (enabled) this.emitFile({ type: 'chunk', id: BOOT_MODULE, name: 'boot' });
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        if (!enabled || !context.bundle) return html;
        const chunks = Object.values(context.bundle).flatMap((file) => (file.type === 'chunk' ? [file] : []));
        const app = chunks.find((chunk) => chunk.moduleIds.includes(APP_MODULE))?.fileName;
        const boot = chunks.find((chunk) => chunk.isEntry && chunk.facadeModuleId === BOOT_MODULE);
        if (!app || !boot) throw new Error('onkure-boot-entry: the build has no app or no entry chunk');
        // The entry runs before anything else: it must not import the app's chunks.
        if (boot.imports.length > 0) throw new Error(`onkure-boot-entry: the entry imports ${boot.imports.join(', ')}`);
        if (!html.includes(`src="/${app}"`)) throw new Error('onkure-boot-entry: the page has no app script');
        const links: string[] = [];
        return html
          .replace(
            /(\s*)(<link rel="modulepreload" crossorigin href="[^"]+">|<script type="module" crossorigin src="([^"]+)"><\/script>)/g,
            (_tag, _space: string, tag: string, src?: string) => {
              links.push(
                src === undefined
                  ? tag
                  : src === `/${app}`
                    ? `<link rel="modulepreload" crossorigin href="${src}" ${APP_LINK_ATTRIBUTE}>`
                    : `<link rel="modulepreload" crossorigin href="${src}">`,
              );
              return '';
            },
          )
          .replace(
            '</head>',
            `<template ${SCRIPTS_TEMPLATE_ATTRIBUTE}>${links.join('')}</template><script type="module" crossorigin src="/${boot.fileName}"></script></head>`,
          );
      },
    },
  };
}

/** The id of the built page's element that maps each lazily loaded module to its chunks (`pageChunks`). */
const PAGE_CHUNKS_ID = 'onkure-page-chunks';

/**
 * Writes into the built page, for the server, the chunks of each lazily loaded module of ours (a
 * page, a feature, a modal): its path from the project root → the files it loads that the entry
 * does not. A server render links the matched page's for the browser to fetch with the entry,
 * instead of after the entry has run (src/main/server-render.tsx takes the map out of the page).
 */
function pageChunks(): Plugin {
  let root = '';
  return {
    name: 'onkure-page-chunks',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        if (!context.bundle) return [];
        const chunks = new Map(
          Object.values(context.bundle).flatMap((file) =>
            file.type === 'chunk' ? [[file.fileName, file] as const] : [],
          ),
        );
        const reach = (fileName: string, into: Set<string>): Set<string> => {
          if (into.has(fileName)) return into;
          into.add(fileName);
          for (const next of chunks.get(fileName)?.imports ?? []) reach(next, into);
          return into;
        };
        const initial = new Set<string>();
        for (const chunk of chunks.values()) if (chunk.isEntry) reach(chunk.fileName, initial);
        const map: Record<string, string[]> = {};
        for (const chunk of chunks.values()) {
          if (!chunk.isDynamicEntry || !chunk.facadeModuleId) continue;
          const id = path.relative(root, chunk.facadeModuleId).split(path.sep).join('/');
          if (!id.startsWith('src/')) continue;
          map[id] = [...reach(chunk.fileName, new Set())].filter((f) => !initial.has(f)).map((f) => `/${f}`);
        }
        return [
          {
            tag: 'script',
            attrs: { type: 'application/json', id: PAGE_CHUNKS_ID },
            children: JSON.stringify(map).replace(/</g, '\\u003c'),
            injectTo: 'head',
          },
        ];
      },
    },
  };
}

/**
 * Every other module the app (src/main/browser.tsx) loads before the page starts, in one chunk
 * (issue 27): rolldown gives each set of importers its own common chunk, and the app shares most of
 * its modules with some lazily loaded page or modal, so it came out as ~45 chunks, many under 1 KB,
 * each a request (and a round trip on a slow network) before the page can hydrate. They all load
 * with the app anyway; one chunk also compresses better.
 */
const INITIAL_CHUNK = {
  name: 'app',
  tags: ['$initial' as const],
  // The page's entry (src/main/boot.ts) is initial too, and stays out of it.
  test: (id: string) => !BOOT_MODULES.includes(id),
};

/** Long-lived vendor chunks: they change far less often than the app, so browsers keep them cached. */
const VENDOR_CHUNKS = [
  { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
  { name: 'rx-di', test: /node_modules[\\/](rxjs|inversify|@inversifyjs|reflect-metadata)[\\/]/ },
  { name: 'net', test: /node_modules[\\/](ky|zod)[\\/]/ },
];

/**
 * Builds the operator console (operator.html → src/main/operator-browser.tsx, served at /operator) and
 * the camera page (camera.html → src/main/camera-browser.tsx, served at /camera) as
 * a second, separate build into the same folder, once the player's build is written. Two entries in
 * one build would share chunks: a module both reach would move into a chunk the player's page
 * preloads, so console code could land in the player's initial JavaScript. Built on its own, the
 * console shares nothing with the player's bundle, and build.json keeps naming the player's entry.
 */
function operatorConsoleBuild(): Plugin {
  let outer: ResolvedConfig;
  return {
    name: 'onkure-operator-console',
    apply: 'build',
    configResolved(config) {
      outer = config;
    },
    async closeBundle() {
      // Only after the player's app (not after a library or SSR build using this config).
      if (outer.build.ssr || outer.build.lib) return;
      await build({
        configFile: false,
        root: outer.root,
        mode: outer.mode,
        logLevel: outer.logLevel,
        envDir: outer.envDir,
        plugins: [react(), buildSettings()],
        define: { __ONKURE_TARGET__: JSON.stringify(target) },
        build: {
          outDir: outer.build.outDir,
          emptyOutDir: false,
          sourcemap: true,
          rolldownOptions: {
            input: { operator: 'operator.html', camera: 'camera.html' },
            output: { codeSplitting: { groups: VENDOR_CHUNKS } },
          },
        },
      });
    },
  };
}

export default defineConfig({
  plugins: [react(), buildSettings(), buildManifest(), pageChunks(), bootEntry(), operatorConsoleBuild()],
  define: {
    __ONKURE_TARGET__: JSON.stringify(target),
  },
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      output: {
        // Long-lived vendor chunks: they change far less often than the app, so browsers keep them cached.
        codeSplitting: {
          groups: [...VENDOR_CHUNKS, INITIAL_CHUNK],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:8080',
      // The simulated payment provider's pages and the shop's return page (docs/payments.md).
      '/provider': 'http://127.0.0.1:8080',
      '/purchase-return': 'http://127.0.0.1:8080',
      '/socket.io': { target: 'ws://127.0.0.1:8080', ws: true },
    },
  },
  test: {
    // test/serial/ runs after npm test's build, one file at a time (`npm run test:serial` sets
    // ONKURE_TEST_SERIAL): the bench smoke runs that load the built app, and the chaos campaign and
    // the soak, which hold a cluster under load and measure it, so they have the machine to
    // themselves. The unit phase leaves the folder out.
    include: process.env.ONKURE_TEST_SERIAL ? ['test/serial/**/*.test.ts'] : ['test/**/*.test.{ts,tsx}'],
    exclude: process.env.ONKURE_TEST_SERIAL ? [] : ['test/serial/**', '**/node_modules/**'],
    environment: 'node',
    setupFiles: ['test/setup.ts'],
    // One migrated and seeded store per run; every test server starts as a copy of it.
    globalSetup: ['test/support/store-template.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Every core (vitest leaves one free by default: on this 2-core machine that was one worker). The
    // files wait on sockets, timers and servers much of the time; each has its own server and store.
    maxWorkers: process.env.ONKURE_TEST_SERIAL ? 1 : Math.max(2, availableParallelism()),
    // Test files share their worker's modules (PGlite's compiled WebAssembly, the parsed schemas): every
    // file still starts its own server and store, and no test relies on a module's fresh state.
    isolate: false,
    // Type tests (*.test-d.ts): checked by tsc and reported by name beside the run-time tests.
    typecheck: {
      enabled: !process.env.ONKURE_TEST_SERIAL,
      include: ['test/types/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
    },
  },
});
