/** The store-read checker of test/architecture/layers.test.ts on small sources: it finds every spelling of a read, and nothing else. */
import { describe, expect, it } from 'vitest';
import { storeReads } from './store-reads.js';

describe('storeReads', () => {
  it('finds .store, ?.store, [\'store\'] and { store } reads, with their line', () => {
    const source = [
      'const a = request.view.store.concepts.byId(1);',
      'const b = release?.store;',
      "const c = view['store'];",
      'const { store } = release;',
      'const { store: renamed, label } = release;',
      'function f({ store }: { store: number }) { return store; }',
    ].join('\n');
    expect(storeReads(source, 'x.ts')).toEqual([
      'x.ts:1:11 request.view.store',
      'x.ts:2:11 release?.store',
      "x.ts:3:11 view['store']",
      'x.ts:4:9 store',
      'x.ts:5:9 store: renamed',
      'x.ts:6:14 store',
    ]);
  });

  it('ignores other names, comments, strings, object literals and declarations', () => {
    const source = [
      '// view.store.concepts',
      "const text = 'release.store';",
      'const o = { store: 1, label: view.label };',
      'interface I { store: number }',
      'const storeKind = options.storeKind;',
      'reply.header("Cache-Control", "no-store");',
    ].join('\n');
    expect(storeReads(source)).toEqual([]);
  });
});
