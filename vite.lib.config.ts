import { isAbsolute } from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * The npm library build: every package entry as an ES module in dist/lib, with every package it
 * imports left external (the consumer installs them). Types come from `tsc -p tsconfig.lib.json`.
 *
 *   onkure                 domain + application
 *   onkure/domain          pure rules and entities (no DOM, no packages)
 *   onkure/application     use-cases (RxJS) and ports
 *   onkure/infrastructure  real adapters and createOnkureClient (no React)
 *   onkure/react           the React app, ContainerProvider and hooks
 *   onkure/testing         scripted port doubles, ManualClock, entity factories
 */
export default defineConfig({
  plugins: [react()],
  define: { __ONKURE_TARGET__: 'undefined' },
  build: {
    outDir: 'dist/lib',
    emptyOutDir: true,
    sourcemap: true,
    minify: false,
    cssCodeSplit: false,
    lib: {
      entry: {
        index: 'src/index.ts',
        domain: 'src/domain/index.ts',
        application: 'src/application/index.ts',
        infrastructure: 'src/main/client.ts',
        react: 'src/ui/index.ts',
        testing: 'src/testing/index.ts',
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
