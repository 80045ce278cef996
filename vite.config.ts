import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { resolveBuildTargetOrExit } from './scripts/build-target.ts';

// The build target is fixed at build time [R1-1]: an invalid ONKURE_TARGET stops the build
// with a message that names the allowed values.
const target = resolveBuildTargetOrExit(process.env.ONKURE_TARGET, 'build');

export default defineConfig({
  plugins: [react()],
  define: {
    __ONKURE_TARGET__: JSON.stringify(target),
  },
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    sourcemap: true,
  },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:8080',
      '/socket.io': { target: 'ws://127.0.0.1:8080', ws: true },
    },
  },
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    environment: 'node',
    setupFiles: ['test/setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
