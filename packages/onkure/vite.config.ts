import { isAbsolute, resolve } from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * The package's build: every entry as an ES module in dist/, with every package it imports left
 * external (the consumer installs them: dependencies, or the optional peers for onkure/react).
 * The source is the repository's src/ (shared with the app and the server); types come from
 * `tsc -p tsconfig.build.json`.
 *
 *   onkure                 domain + application
 *   onkure/domain          pure rules and entities (no DOM, no packages)
 *   onkure/application     use-cases (RxJS) and ports
 *   onkure/infrastructure  real adapters and createOnkureClient (no React)
 *   onkure/react           the React app, ContainerProvider and hooks
 *   onkure/testing         scripted port doubles, ManualClock, entity factories
 */
const src = resolve(import.meta.dirname, '../../src');

export default defineConfig({
  plugins: [react()],
  define: { __ONKURE_TARGET__: 'undefined' },
  build: {
    outDir: resolve(import.meta.dirname, 'dist'),
    emptyOutDir: true,
    sourcemap: true,
    minify: false,
    cssCodeSplit: false,
    lib: {
      entry: {
        index: `${src}/index.ts`,
        domain: `${src}/domain/index.ts`,
        application: `${src}/application/index.ts`,
        infrastructure: `${src}/main/client.ts`,
        react: `${src}/ui/index.ts`,
        testing: `${src}/testing/index.ts`,
      },
      formats: ['es'],
    },
    rolldownOptions: {
      // Bare imports (rxjs, react, ky, …) are the consumer's dependencies; our own files and the
      // compiler's helpers (decorators) are bundled.
      external: (id) =>
        !id.startsWith('.') && !id.startsWith('\0') && !isAbsolute(id) && !id.startsWith('@oxc-project/runtime'),
    },
  },
});
