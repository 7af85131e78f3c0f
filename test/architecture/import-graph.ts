/**
 * Reads the relative imports of every `src/**\/*.ts` file (static `import … from`, `export … from`,
 * side-effect imports and `import('…')` with a literal, through TypeScript's own pre-processor) and
 * checks the layering rules of issue 21 over them: forbidden folder-to-folder imports, and cycles
 * between folders (strongly connected components of the folder graph, found with Tarjan's algorithm).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import ts from 'typescript';

/** One import of one file: both as repository-relative paths with '/' separators (`src/store/x.ts`). */
export interface ImportEdge {
  from: string;
  to: string;
  /** The specifier as written. */
  specifier: string;
}

/** A rule: no file under `from` may import a file under `to` (folder prefixes, '/'-separated). */
export interface ForbiddenImport {
  from: string;
  to: string;
}

const toPosix = (p: string) => p.split(sep).join('/');

/** Every `.ts` and `.tsx` file (not `.d.ts`) under a folder, recursively. */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** The relative specifiers a TypeScript source imports or re-exports (static and literal dynamic imports). */
export function importSpecifiers(source: string): string[] {
  const info = ts.preProcessFile(source, true, true);
  return info.importedFiles.map((f) => f.fileName).filter((s) => s.startsWith('./') || s.startsWith('../'));
}

/** Every relative import of every `.ts` file under `<root>/<srcDir>`, resolved to the `.ts` file it names. */
export function readImportGraph(root: string, srcDir = 'src'): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of sourceFiles(join(root, srcDir))) {
    const from = toPosix(relative(root, file));
    for (const specifier of importSpecifiers(readFileSync(file, 'utf8'))) {
      const asTs = posix.normalize(posix.join(posix.dirname(from), specifier)).replace(/\.js$/, '.ts');
      const target = !existsSync(join(root, asTs)) && existsSync(join(root, `${asTs}x`)) ? `${asTs}x` : asTs;
      edges.push({ from, to: target, specifier });
    }
  }
  return edges;
}

const under = (file: string, folder: string) => file.startsWith(folder.endsWith('/') ? folder : `${folder}/`);

/** The imports that break a rule, one line each: `file imports 'specifier' (folder must not import folder)`. */
export function forbiddenImports(edges: readonly ImportEdge[], rules: readonly ForbiddenImport[]): string[] {
  const out: string[] = [];
  for (const e of edges) {
    for (const rule of rules) {
      if (under(e.from, rule.from) && under(e.to, rule.to)) {
        out.push(`${e.from} imports '${e.specifier}' (${rule.from}/ must not import ${rule.to}/)`);
      }
    }
  }
  return out;
}

/**
 * The folder cycles: every strongly connected component of more than one folder in the graph
 * "folder of a file → folder of a file it imports" (imports within one folder ignored), each
 * described by its folders and, for every edge inside it, one import that makes the edge.
 */
export function folderCycles(edges: readonly ImportEdge[]): string[] {
  const example = new Map<string, ImportEdge>();
  const next = new Map<string, Set<string>>();
  for (const e of edges) {
    const a = dirname(e.from);
    const b = dirname(e.to);
    if (a === b) continue;
    if (!next.has(a)) next.set(a, new Set());
    if (!next.has(b)) next.set(b, new Set());
    next.get(a)!.add(b);
    if (!example.has(`${a}\u0000${b}`)) example.set(`${a}\u0000${b}`, e);
  }
  // Tarjan's strongly connected components (recursive: the folder graph is small).
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of [...next.get(v)!].sort()) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) visit(v);
  return components.map((folders) => {
    const inside = new Set(folders);
    const lines = [...example.entries()]
      .filter(([key]) => {
        const [a, b] = key.split('\u0000') as [string, string];
        return inside.has(a) && inside.has(b);
      })
      .map(([, e]) => `  ${dirname(e.from)} → ${dirname(e.to)}: ${e.from} imports '${e.specifier}'`)
      .sort();
    return `folders ${folders.join(', ')} import each other:\n${lines.join('\n')}`;
  });
}
