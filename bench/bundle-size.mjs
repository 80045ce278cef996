#!/usr/bin/env node
// Prints the size of every file of the built app (dist/client/assets), raw and gzipped, and the
// JavaScript a first visit to the top page downloads. Run `npm run build` first.
//
//   node bench/bundle-size.mjs [assets folder, default dist/client/assets]
//
// npm test's smoke run points it at a folder of its own (a build is not there yet when the unit
// tests run).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const dir = process.argv[2] ?? new URL('../dist/client/assets/', import.meta.url).pathname;
let js = 0;
let jsGz = 0;
for (const name of readdirSync(dir)
  .filter((n) => !n.endsWith('.map'))
  .sort()) {
  const bytes = readFileSync(join(dir, name));
  const gz = gzipSync(bytes).length;
  if (name.endsWith('.js') && !name.startsWith('not-found')) {
    js += bytes.length;
    jsGz += gz;
  }
  console.log(
    `${name.padEnd(40)} ${String(statSync(join(dir, name)).size).padStart(8)} B  ${String(gz).padStart(7)} B gz`,
  );
}
console.log(`top page JavaScript: ${js} B, ${jsGz} B gzipped`);
