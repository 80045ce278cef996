/**
 * Gives every relative import in the emitted declarations its full path (`./rule` → `./rule.js`,
 * `../domain` → `../domain/index.js`), as Node16/NodeNext resolution requires of an ES module
 * package. The source uses bundler resolution (extensionless imports), which tsc copies as is.
 * (tsc-alias's resolveFullPaths looks for emitted .js files beside each declaration, and a
 * declaration-only emit has none.)
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const root = resolve(process.argv[2] ?? 'dist/types');
// `from './x'`, `import('./x')` and `declare module './x'`: every relative specifier a declaration holds.
const specifier = /(\bfrom\s*|\bimport\s*\(\s*|\bmodule\s+)(['"])(\.\.?\/[^'"]*|\.\.?)\2/g;
let files = 0;
let rewritten = 0;

function fullPath(file, spec) {
  if (/\.(js|json)$/.test(spec)) return spec;
  const target = resolve(dirname(file), spec);
  if (existsSync(`${target}.d.ts`)) return `${spec}.js`;
  if (existsSync(join(target, 'index.d.ts'))) return `${spec.replace(/\/$/, '')}/index.js`;
  throw new Error(`${file}: no declaration for '${spec}'`);
}

function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith('.d.ts')) {
      files += 1;
      const text = readFileSync(path, 'utf8');
      const next = text.replace(
        specifier,
        (_all, head, quote, spec) => `${head}${quote}${fullPath(path, spec)}${quote}`,
      );
      if (next !== text) {
        rewritten += 1;
        writeFileSync(path, next);
      }
    }
  }
}

walk(root);
console.log(`full type paths: ${rewritten} of ${files} declaration files rewritten`);
