import { defineConfig } from 'vite';

/**
 * The npm library build: `onkure` (domain + application), `onkure/domain` and `onkure/application`
 * as ES modules in dist/lib, with their packages left external. Types come from `tsc -p tsconfig.lib.json`.
 */
export default defineConfig({
  build: {
    outDir: 'dist/lib',
    emptyOutDir: true,
    sourcemap: true,
    minify: false,
    lib: {
      entry: { index: 'src/index.ts', domain: 'src/domain/index.ts', application: 'src/application/index.ts' },
      formats: ['es'],
    },
    rolldownOptions: {
      external: [/^rxjs(\/.*)?$/, /^inversify$/, /^reflect-metadata$/],
    },
  },
});
