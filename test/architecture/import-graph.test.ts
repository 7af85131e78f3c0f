/** The layering checker of test/architecture/layers.test.ts on small in-memory graphs: it finds what it must. */
import { describe, expect, it } from 'vitest';
import { folderCycles, forbiddenImports, importSpecifiers, type ImportEdge } from './import-graph.js';

const edge = (from: string, to: string): ImportEdge => ({ from, to, specifier: `<${to}>` });

describe('importSpecifiers', () => {
  it('reads static, re-export, side-effect and literal dynamic imports, and nothing in comments or strings', () => {
    const source = [
      "import { a } from './a.js';",
      "import type {\n  B,\n  C,\n} from '../b/c.js';",
      "export { d } from './d.js';",
      "export * from '../e.js';",
      "import './side-effect.js';",
      "const lazy = await import('./lazy.js');",
      "const computed = await import(name);",
      "import fs from 'node:fs';",
      "// import { x } from './commented.js';",
      "/* import('./block-comment.js') */",
      "const text = \"import { y } from './in-a-string.js'\";",
    ].join('\n');
    expect(importSpecifiers(source).sort()).toEqual(['../b/c.js', '../e.js', './a.js', './d.js', './lazy.js', './side-effect.js']);
  });
});

describe('forbiddenImports', () => {
  const rules = [{ from: 'src/store', to: 'src/services' }];

  it('names the file and the import that breaks a rule', () => {
    const edges = [
      { from: 'src/store/sqlite/x.ts', to: 'src/services/search/ranking.ts', specifier: '../../services/search/ranking.js' },
      edge('src/services/search/y.ts', 'src/store/search-store.ts'),
    ];
    expect(forbiddenImports(edges, rules)).toEqual([
      "src/store/sqlite/x.ts imports '../../services/search/ranking.js' (src/store/ must not import src/services/)",
    ]);
  });

  it('matches whole folder names, not prefixes of names', () => {
    expect(forbiddenImports([edge('src/store-model/a.ts', 'src/services/b.ts'), edge('src/store/a.ts', 'src/services-model/b.ts')], rules)).toEqual([]);
  });
});

describe('folderCycles', () => {
  it('accepts a layered graph and imports within one folder', () => {
    const edges = [edge('src/a/x.ts', 'src/b/y.ts'), edge('src/b/y.ts', 'src/c/z.ts'), edge('src/a/x.ts', 'src/c/z.ts'), edge('src/c/z.ts', 'src/c/w.ts'), edge('src/c/w.ts', 'src/c/z.ts')];
    expect(folderCycles(edges)).toEqual([]);
  });

  it('finds two folders importing each other, naming one import per edge', () => {
    const cycles = folderCycles([edge('src/store/openers.ts', 'src/store/sqlite/open.ts'), edge('src/store/sqlite/open.ts', 'src/store/data-dir.ts')]);
    expect(cycles).toEqual([
      [
        'folders src/store, src/store/sqlite import each other:',
        "  src/store → src/store/sqlite: src/store/openers.ts imports '<src/store/sqlite/open.ts>'",
        "  src/store/sqlite → src/store: src/store/sqlite/open.ts imports '<src/store/data-dir.ts>'",
      ].join('\n'),
    ]);
  });

  it('finds a longer cycle as one component, apart from a second one', () => {
    const edges = [
      edge('src/a/1.ts', 'src/b/1.ts'),
      edge('src/b/1.ts', 'src/c/1.ts'),
      edge('src/c/1.ts', 'src/a/2.ts'),
      edge('src/c/1.ts', 'src/d/1.ts'), // d is below the cycle, not part of it
      edge('src/e/1.ts', 'src/f/1.ts'),
      edge('src/f/1.ts', 'src/e/1.ts'),
    ];
    const cycles = folderCycles(edges);
    expect(cycles).toHaveLength(2);
    expect(cycles[0]).toMatch(/^folders src\/a, src\/b, src\/c import each other:/);
    expect(cycles[0]).toContain("src/c → src/a: src/c/1.ts imports '<src/a/2.ts>'");
    expect(cycles[0]).not.toContain('src/d');
    expect(cycles[1]).toMatch(/^folders src\/e, src\/f import each other:/);
  });
});
