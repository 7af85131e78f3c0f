/**
 * Finds the adapters' reads of a release store: in every file under the adapter folders (src/http, src/cli), any
 * property named `store` read with `.store`, `?.store`, `['store']` or a `{ store }` destructuring, parsed with
 * TypeScript so comments and strings do not count. Adapters read releases through a view's members and services.
 */
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import { sourceFiles } from './import-graph.js';

/** One read: `file:line:column` and the text of the expression. */
export function storeReads(source: string, fileName = 'source.ts'): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: string[] = [];
  const report = (node: ts.Node) => {
    const { line, character } = file.getLineAndCharacterOfPosition(node.getStart(file));
    out.push(`${fileName}:${line + 1}:${character + 1} ${node.getText(file).replace(/\s+/g, ' ')}`);
  };
  const isStore = (name: ts.Node | undefined) => name !== undefined && (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteralLike(name)) && name.text === 'store';
  const visit = (node: ts.Node) => {
    if (ts.isPropertyAccessExpression(node) && isStore(node.name)) report(node);
    else if (ts.isElementAccessExpression(node) && isStore(node.argumentExpression)) report(node);
    else if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent) && isStore(node.propertyName ?? node.name)) report(node);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

/** Every store read in the `.ts` files under these folders of `root`, except the files in `allowed` (repository-relative, '/'). */
export function adapterStoreReads(root: string, folders: readonly string[], allowed: readonly string[] = []): string[] {
  const out: string[] = [];
  for (const folder of folders) {
    for (const path of sourceFiles(join(root, folder))) {
      const file = relative(root, path).split(sep).join('/');
      if (!allowed.includes(file)) out.push(...storeReads(readFileSync(path, 'utf8'), file));
    }
  }
  return out;
}
