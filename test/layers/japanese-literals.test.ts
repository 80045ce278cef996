import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** Hiragana, katakana, CJK ideographs and full-width forms. */
const JAPANESE = /[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]/;
const ROOT = join(import.meta.dirname, '..', '..');

/**
 * Where Japanese text may live: message modules, and content rather than copy — the demo catalogue
 * the server seeds (invented prizes) and the sample entities of onkure/testing's factories.
 */
const allowed = (path: string) =>
  /(^|\/)([\w.-]+\.)?messages\.ts$/.test(path) ||
  path.startsWith('server/seed/') ||
  path === 'src/testing/factories.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    if (statSync(join(ROOT, path)).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Every string, template or JSX text in a file that holds Japanese (comments are free to quote it). */
function japaneseLiterals(path: string): string[] {
  const text = readFileSync(join(ROOT, path), 'utf8');
  const source = ts.createSourceFile(
    path,
    text,
    ts.ScriptTarget.Latest,
    true,
    path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isStringLiteral(node) ||
        ts.isNoSubstitutionTemplateLiteral(node) ||
        ts.isTemplateLiteralToken(node) ||
        ts.isJsxText(node)) &&
      JAPANESE.test(node.text)
    ) {
      found.push(
        `${relative(ROOT, join(ROOT, path))}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${node.text.trim().slice(0, 40)}`,
      );
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('Japanese text lives only in message modules', () => {
  it.each(['src', 'server'])('[R1-4] no Japanese string literal in %s/ outside a messages module', (dir) => {
    const offenders = sourceFiles(dir)
      .filter((path) => !allowed(path))
      .flatMap(japaneseLiterals);
    expect(offenders).toEqual([]);
  });

  it('finds a Japanese literal where one is (the check can fail)', () => {
    expect(japaneseLiterals('src/ui/messages.ts').length).toBeGreaterThan(0);
  });
});
