/**
 * The whole-system CodeSystem/$diff walk (src/services/terminology/code-system-diff.ts, issue #14)
 * through its module contract, on the releases of ./codesystem-diff-fixture.ts: with a scan budget
 * of a few concepts, pages read at most that many concepts per release, some pages hold no change
 * and still have `next`, and the walk ends with the same changes and totals as with the default
 * budget; a system of two vocabularies (ICD-9-CM) walks one, then the other. Also the ConceptStore
 * reads the walk stands on (inCodeOrder: UTF-8 code order, then concept_id, from any position;
 * inIdOrder) and the merge's code order (compareUtf8 against UTF-8 bytes).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRelease } from '../../src/importer/load-release.js';
import { LicenceRules } from '../../src/licences/licence-rules.js';
import { ReleaseView } from '../../src/services/release-view.js';
import { compareUtf8, diffCodeSystem, type CodeSystemDiffPage, type CodeSystemDiffRequest } from '../../src/services/terminology/code-system-diff.js';
import type { ReleaseChange } from '../../src/services/terminology/release-diff.js';
import { listReleaseBuilds } from '../../src/store/data-dir.js';
import type { ConceptStore, ReleaseStore } from '../../src/store/release-store.js';
import { openSqliteRelease } from '../../src/store/sqlite/open-sqlite-release.js';
import { writeAthenaFixture } from '../helpers/athena-fixture.js';
import { base, diffReleases } from './codesystem-diff-fixture.js';
import { OMOP, SNOMED } from './codesystem-fixture.js';

let dataDir: string;
const stores: ReleaseStore[] = [];
let before: ReleaseStore;
let after: ReleaseStore;
let duplicates: ReleaseStore;
let icd9Before: ReleaseStore;
let icd9After: ReleaseStore;

/** ICD-9-CM's URI names two vocabularies, walked in turn: ICD9CM, then ICD9Proc. */
const ICD9 = 'http://hl7.org/fhir/sid/icd-9-cm';
const icd9 = (id: number, name: string, code: string, vocabulary_id: 'ICD9CM' | 'ICD9Proc') => base(id, name, code, { vocabulary_id, standard_concept: null });

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'omopterm-diff-walk-'));
  const duplicateCodes = writeAthenaFixture({
    concepts: [base(30, 'b', 'B'), base(10, 'b again', 'B'), base(20, 'a', 'A'), base(40, 'lower b', 'b'), base(50, 'c', 'C'), base(60, 'b once more', 'B')],
  });
  const icd9Releases = [
    {
      dir: writeAthenaFixture({
        concepts: [icd9(2001, 'Diabetes', '250.00', 'ICD9CM'), icd9(2002, 'Hypertension', '401.9', 'ICD9CM'), icd9(2101, 'Proc one', '45.1', 'ICD9Proc'), icd9(2102, 'Proc gone', '99.9', 'ICD9Proc')],
      }),
      label: '2022.1',
    },
    {
      dir: writeAthenaFixture({
        concepts: [
          icd9(2001, 'Diabetes mellitus', '250.00', 'ICD9CM'),
          icd9(2002, 'Hypertension', '401.9', 'ICD9CM'),
          icd9(2003, 'Diabetes, type 1', '250.01', 'ICD9CM'),
          icd9(2101, 'Proc one', '45.1', 'ICD9Proc'),
          icd9(2103, 'Proc new', '01.0', 'ICD9Proc'),
        ],
      }),
      label: '2022.2',
    },
  ];
  for (const { dir, label } of [...diffReleases(), { dir: duplicateCodes, label: '2023.1' }, ...icd9Releases]) {
    await loadRelease({ sourceDir: dir, dataDir, label, quiet: true });
  }
  const open = (label: string) => {
    const store = openSqliteRelease(listReleaseBuilds(dataDir).find((b) => b.label === label)!);
    stores.push(store);
    return store;
  };
  before = open('2024.2');
  after = open('2025.2');
  duplicates = open('2023.1');
  icd9Before = open('2022.1');
  icd9After = open('2022.2');
});
afterAll(() => {
  for (const store of stores) store.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const unvalidated = new LicenceRules(null);
const validated = new LicenceRules('2999-12-31');

/** The store with its walk reads counted (rows returned by inCodeOrder and inIdOrder since the last reset). */
function counted(store: ReleaseStore): { store: ReleaseStore; rows: () => number; reset: () => void } {
  let rows = 0;
  const concepts: ConceptStore = Object.create(store.concepts, {
    inCodeOrder: { value: (...args: Parameters<ConceptStore['inCodeOrder']>) => tally(store.concepts.inCodeOrder(...args)) },
    inIdOrder: { value: (...args: Parameters<ConceptStore['inIdOrder']>) => tally(store.concepts.inIdOrder(...args)) },
  });
  const tally = <T extends unknown[]>(list: T): T => {
    rows += list.length;
    return list;
  };
  return { store: Object.create(store, { concepts: { value: concepts } }) as ReleaseStore, rows: () => rows, reset: () => (rows = 0) };
}

/** Every page of the walk, with the concepts each page read per release. */
function walk(system: string, policy: LicenceRules, request: Omit<CodeSystemDiffRequest, 'cursor'>, budget?: number, releases = [before, after]) {
  const [from, to] = [counted(releases[0]!), counted(releases[1]!)];
  const pages: Array<CodeSystemDiffPage & { read: [number, number] }> = [];
  let cursor: string | undefined;
  do {
    from.reset();
    to.reset();
    const page = diffCodeSystem(new ReleaseView(from.store, policy), new ReleaseView(to.store, policy), system, { ...request, cursor }, budget);
    pages.push({ ...page, read: [from.rows(), to.rows()] });
    cursor = page.next;
    expect(pages.length).toBeLessThan(200);
  } while (cursor !== undefined);
  const changes: ReleaseChange[] = pages.flatMap((p) => p.changes);
  return { pages, changes, totals: pages[pages.length - 1]!.counts };
}

describe('ConceptStore reads of the walk', () => {
  it('inCodeOrder: one vocabulary in (concept_code as UTF-8 bytes, concept_id) order, after any position', () => {
    const codes = (rows: Array<{ concept_code: string }>) => rows.map((c) => c.concept_code);
    expect(codes(after.concepts.inCodeOrder('SNOMED', undefined, 100))).toEqual(['A1', 'D1', 'I1', 'M1', 'R1', 'U1', 'X1', 'Ｚ1', '😀1']);
    expect(codes(after.concepts.inCodeOrder('SNOMED', { code: 'M1', conceptId: 1009 }, 2))).toEqual(['R1', 'U1']);
    expect(codes(after.concepts.inCodeOrder('SNOMED', { code: 'Ｚ1', conceptId: 1010 }, 5))).toEqual(['😀1']);
    expect(after.concepts.inCodeOrder('ICD10CM', undefined, 5).map((c) => c.concept_id)).toEqual([1005]);
    const keys = (rows: Array<{ concept_code: string; concept_id: number }>) => rows.map((c) => `${c.concept_code}:${c.concept_id}`);
    expect(keys(duplicates.concepts.inCodeOrder('SNOMED', undefined, 10))).toEqual(['A:20', 'B:10', 'B:30', 'B:60', 'C:50', 'b:40']);
    expect(keys(duplicates.concepts.inCodeOrder('SNOMED', { code: 'B', conceptId: 10 }, 2))).toEqual(['B:30', 'B:60']);
    expect(keys(duplicates.concepts.inCodeOrder('SNOMED', { code: 'B', conceptId: 60 }, 10))).toEqual(['C:50', 'b:40']);
    expect(keys(duplicates.concepts.inCodeOrder('SNOMED', { code: 'b', conceptId: 40 }, 10))).toEqual([]);
  });

  it('inIdOrder: concepts above an id, in concept_id order', () => {
    expect(after.concepts.inIdOrder(1005, 3).map((c) => c.concept_id)).toEqual([1006, 1007, 1008]);
    expect(after.concepts.inIdOrder(1012, 3)).toEqual([]);
  });
});

describe('compareUtf8 (the merge order of codes)', () => {
  it('orders texts as their UTF-8 bytes do (SQLite BINARY), not as UTF-16 units do', () => {
    const alphabet = ['a', 'B', '1', '-', 'é', '\u00ff', '\u0800', '\ud7ff', '\ue000', '\uff21', '\uffff', '😀', '\u{10000}', '\u{10ffff}'];
    let seed = 7;
    const random = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    const texts = Array.from({ length: 400 }, () => Array.from({ length: Math.floor(random() * 4) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(''));
    const sign = (n: number) => Math.sign(n);
    for (const a of texts) for (const b of texts.slice(0, 60)) expect(sign(compareUtf8(a, b)), `${a} ${b}`).toBe(sign(Buffer.compare(Buffer.from(a), Buffer.from(b))));
    expect(compareUtf8('\uff3a1', '😀1')).toBeLessThan(0);
    expect('\uff3a1' < '😀1').toBe(false);
  });
});

describe('the whole-system walk with a small scan budget', () => {
  it('reads at most the budget per release and page; pages without a change still have `next`; same changes and totals as the default budget', () => {
    for (const [system, policy] of [
      [SNOMED, unvalidated],
      [OMOP, unvalidated],
      [OMOP, validated],
    ] as const) {
      const reference = walk(system, policy, { count: 100 });
      expect(reference.pages).toHaveLength(1);
      expect(reference.changes.length).toBeGreaterThan(5);
      for (const budget of [1, 2, 3]) {
        for (const count of [1, 100]) {
          const small = walk(system, policy, { count }, budget);
          const label = `${system} budget ${budget} count ${count}`;
          expect(small.changes, label).toEqual(reference.changes);
          expect(small.totals, label).toEqual(reference.totals);
          for (const page of small.pages) {
            expect(page.read[0], label).toBeLessThanOrEqual(budget);
            expect(page.read[1], label).toBeLessThanOrEqual(budget);
            expect(page.changes.length, label).toBeLessThanOrEqual(count);
          }
          // U1 (unchanged) is a page of its own with a budget of 1.
          if (budget === 1 && count === 100) expect(small.pages.some((p) => p.changes.length === 0 && p.next !== undefined), label).toBe(true);
        }
      }
    }
  });

  it('a system of two vocabularies (ICD-9-CM: ICD9CM, then ICD9Proc) walks each in turn, across page boundaries', () => {
    const change = (code: string, display: string, type: string, from: string, to: string) => ({ code, display, type, from, to });
    const expected = [
      change('250.00', 'Diabetes mellitus', 'renamed', 'Diabetes', 'Diabetes mellitus'),
      change('250.01', 'Diabetes, type 1', 'added', '', 'Diabetes, type 1'),
      change('01.0', 'Proc new', 'added', '', 'Proc new'),
      change('99.9', 'Proc gone', 'deprecated', 'valid', ''),
    ];
    for (const budget of [1, 2, undefined]) {
      for (const count of [1, 100]) {
        const walked = walk(ICD9, unvalidated, { count }, budget, [icd9Before, icd9After]);
        expect(walked.changes, `budget ${budget} count ${count}`).toEqual(expected);
        expect(walked.totals).toEqual([
          { type: 'added', count: 2 },
          { type: 'deprecated', count: 1 },
          { type: 'reinstated', count: 0 },
          { type: 'renamed', count: 1 },
          { type: 're-domained', count: 0 },
          { type: 'remapped', count: 0 },
        ]);
      }
    }
  });

  it('running totals grow page by page up to the totals of the last page', () => {
    const { pages, changes } = walk(SNOMED, unvalidated, { count: 100 }, 2);
    let seen = 0;
    for (const page of pages) {
      seen += page.changes.length;
      expect(page.counts.reduce((sum, c) => sum + c.count, 0)).toBe(seen);
    }
    expect(seen).toBe(changes.length);
  });

  it('only the asked types, and no `Maps to` read when remapped is not asked', () => {
    const types = new Set(['renamed'] as const);
    const reads = { mapsTo: 0 };
    const watching = (store: ReleaseStore): ReleaseStore => {
      const concepts: ConceptStore = Object.create(store.concepts, {
        related: { value: (...args: Parameters<ConceptStore['related']>) => (reads.mapsTo++, store.concepts.related(...args)) },
        targetsOf: { value: (...args: Parameters<ConceptStore['targetsOf']>) => (reads.mapsTo++, store.concepts.targetsOf(...args)) },
      });
      return Object.create(store, { concepts: { value: concepts } }) as ReleaseStore;
    };
    const page = diffCodeSystem(new ReleaseView(watching(before), validated), new ReleaseView(watching(after), validated), OMOP, { types });
    expect(page.changes.map((c) => c.code)).toEqual(['1001', '1009', '1012']);
    expect(page.counts).toEqual([{ type: 'renamed', count: 3 }]);
    expect(reads.mapsTo).toBe(0);
    diffCodeSystem(new ReleaseView(watching(before), validated), new ReleaseView(watching(after), validated), OMOP, {});
    expect(reads.mapsTo).toBeGreaterThan(0);
  });
});
