/**
 * Builds the station widget from the installed onkure package: one ES module (and its lazy chunks)
 * in station-widget/dist, with index.html beside it. `--serve` then serves that folder as a
 * partner's page would (http://localhost:8081/): run the service (`npm start`, port 8080) with
 * ALLOWED_ORIGINS=http://localhost:8081 so it answers this origin.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const outdir = join(here, 'dist');
mkdirSync(outdir, { recursive: true });
copyFileSync(join(here, 'index.html'), join(outdir, 'index.html'));
const options = {
  entryPoints: [join(here, 'onkure-station.ts')],
  bundle: true,
  splitting: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  outdir,
  // An optional peer of onkure, for spectators' LL-HLS: the widget shows the stills and never loads it.
  external: ['hls.js'],
  metafile: true,
  logLevel: 'warning',
};
if (process.argv.includes('--serve')) {
  const context = await esbuild.context(options);
  await context.rebuild();
  const { port } = await context.serve({ servedir: outdir, port: 8081 });
  console.log(`the partner page: http://localhost:${port}/`);
} else {
  const result = await esbuild.build(options);
  // What went into the bundle, beside it (not served): the proof of what the widget is made of.
  writeFileSync(join(here, 'meta.json'), JSON.stringify(result.metafile));
  const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
  console.log(
    `station widget: ${Object.keys(result.metafile.outputs).length} files, ${(bytes / 1000).toFixed(1)} kB in ${outdir}`,
  );
}
