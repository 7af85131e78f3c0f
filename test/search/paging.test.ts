/** Paging is stable: the concatenation of pages equals the unpaged order, without duplicates, over thousands of hits. */
import { ReleaseView } from '../../src/services/release-view.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureConcept } from '../helpers/athena-fixture.js';
import { searchConcepts } from '../../src/services/search/keyword-search.js';
import type { SearchFilters } from '../../src/services/search/search-filters.js';
import { licensed, openFixtureStore, type FixtureStore } from './search-fixture.js';

const DOMAINS = ['Condition', 'Drug', 'Observation', 'Procedure', 'Measurement', 'Meas Value'];
const VOCABS = ['SNOMED', 'RxNorm', 'ICD10CM', 'LOINC', 'TESTVOC'];
const CLASSES = ['Clinical Finding', 'Answer', 'Ingredient', 'LOINC Component', 'Lab Test'];
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'kappa'];

function generate(n: number): { concepts: FixtureConcept[]; synonyms: Array<[number, string]> } {
  let seed = 42;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = <T>(a: readonly T[]) => a[Math.floor(rnd() * a.length)]!;
  const concepts: FixtureConcept[] = [];
  const synonyms: Array<[number, string]> = [];
  for (let i = 0; i < n; i++) {
    const id = 20_000_000 + i;
    const words = Array.from({ length: 1 + Math.floor(rnd() * 6) }, () => pick(WORDS));
    // "widget" as a word, a prefix ("widgetry"), a substring ("superwidgets") or only in a synonym
    const form = pick(['widget', 'widget', 'widgetry', 'superwidgets', 'synonym-only']);
    const name = form === 'synonym-only' ? words.join(' ') : [...words.slice(0, 2), form, ...words.slice(2)].join(' ');
    const std = pick(['S', 'S', 'C', null] as const);
    concepts.push({
      concept_id: id,
      concept_name: name,
      domain_id: pick(DOMAINS),
      vocabulary_id: pick(VOCABS),
      concept_class_id: pick(CLASSES),
      standard_concept: std,
      concept_code: `W${i}`,
      invalid_reason: rnd() < 0.05 ? 'D' : null,
    });
    if (form === 'synonym-only' || rnd() < 0.2) synonyms.push([id, `${pick(WORDS)} widget ${pick(WORDS)}`]);
  }
  concepts.push({ concept_id: 29_999_999, concept_name: 'Widget', concept_code: 'WIDGET' });
  return { concepts, synonyms };
}

let f: FixtureStore;
beforeAll(async () => {
  f = await openFixtureStore(generate(4000));
});
afterAll(() => f?.close());

describe('stable paging', () => {
  const cases: Array<[string, SearchFilters]> = [
    ['no filter', {}],
    ['include_invalid', { includeInvalid: true }],
    // naming Meas Value or a demoted class turns the demotion off: one rank group over every band
    ['domain filter', { domainIds: ['Condition', 'Meas Value'] }],
    ['demotion off, include_invalid', { conceptClassIds: ['Answer', 'Clinical Finding', 'Lab Test'], includeInvalid: true }],
  ];
  for (const [label, filters] of cases) {
    it(`concatenated pages equal the unpaged order (${label})`, () => {
      const policy = licensed();
      const all = searchConcepts(new ReleaseView(f.store, policy), { query: 'widget', filters, window: { offset: 0, limit: 100000 } });
      expect(all.total).toBe(all.items.length);
      expect(all.items.length).toBeGreaterThan(label === 'no filter' || label === 'include_invalid' ? 2000 : 500);
      for (const pageSize of [20, 37, 200]) {
        const seen: number[] = [];
        for (let page = 1; ; page++) {
          const r = searchConcepts(new ReleaseView(f.store, policy), { query: 'widget', filters, page, pageSize });
          expect(r.total).toBe(all.total);
          seen.push(...r.items.map((i) => i.concept_id));
          if (r.items.length < pageSize) break;
        }
        expect(new Set(seen).size).toBe(seen.length);
        expect(seen).toEqual(all.items.map((i) => i.concept_id));
      }
      const scores = all.items.map((i) => i.match_score);
      for (let i = 1; i < scores.length; i++) expect(scores[i]).toBeLessThanOrEqual(scores[i - 1]!);
    });
  }

  it('min_score keeps a prefix of the list and counts it', () => {
    const policy = licensed();
    const all = searchConcepts(new ReleaseView(f.store, policy), { query: 'widget', window: { offset: 0, limit: 100000 } });
    const cut = all.items[Math.floor(all.items.length / 2)]!.match_score;
    const r = searchConcepts(new ReleaseView(f.store, policy), { query: 'widget', minScore: cut, window: { offset: 0, limit: 100000 } });
    expect(r.items).toEqual(all.items.filter((i) => i.match_score >= cut));
    expect(r.total).toBe(r.items.length);
  });
});

describe('pages without a total (bulk search, suggest)', () => {
  // Without a total, a band is counted only up to what the page needs; a band with fewer matches
  // gets an exact budget and its empty tiers are skipped. The page must equal a walk without budgets.
  const queries = ['widget', 'alpha widget', 'beta gamma', 'kappa superwidgets', 'omega widgetry delta', 'alpha beta gamma', 'delta wid', 'gamma widg', 'alpha be', 'gamma d', 'zzz nothing'];
  const cases: Array<[string, SearchFilters]> = [
    ['no filter', {}],
    ['include_invalid', { includeInvalid: true }],
    ['domain filter', { domainIds: ['Condition', 'Drug'] }],
  ];
  for (const [label, filters] of cases) {
    it(`equal the counted pages, page by page (${label})`, () => {
      const policy = licensed();
      for (const query of queries) {
        for (const [page, pageSize] of [[1, 1], [1, 10], [2, 10], [1, 50], [7, 3]] as const) {
          for (const prefixLastToken of [false, true]) {
            const request = { query, filters, page, pageSize, prefixLastToken };
            // The reference walks every tier of every band: a min_score (however small) turns budgets off.
            const reference = searchConcepts(new ReleaseView(f.store, policy), { ...request, minScore: Number.MIN_VALUE });
            const counted = searchConcepts(new ReleaseView(f.store, policy), request);
            const uncounted = searchConcepts(new ReleaseView(f.store, policy), { ...request, countTotal: false });
            const what = `${query} page ${page} of ${pageSize}${prefixLastToken ? ', last word as prefix' : ''}`;
            expect(uncounted.total).toBeNull();
            expect(uncounted.items, what).toEqual(reference.items);
            expect(counted.items, what).toEqual(reference.items);
          }
        }
      }
    });
  }
});
