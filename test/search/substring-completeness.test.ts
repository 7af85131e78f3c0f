/**
 * E4 matching rule 2 (substring matching) is complete: a query fragment found inside hundreds of
 * distinct indexed words returns — and counts in total_items — every concept whose name or synonym
 * has a word containing it, however rare that word. Expected sets come from a brute-force scan of
 * the fixture's CONCEPT.csv / CONCEPT_SYNONYM.csv, not from the code under test. Through a real server.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAthenaFixture, type FixtureConcept } from '../helpers/athena-fixture.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/** Deterministic pseudo-random letters (the fixture is the same on every run). */
let seed = 20251123;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const letters = (n: number) => Array.from({ length: n }, () => 'bcdfgklmnprsvz'[Math.floor(random() * 14)]).join('');

function buildFixture(): { concepts: FixtureConcept[]; synonyms: Array<[number, string]> } {
  const concepts: FixtureConcept[] = [];
  const synonyms: Array<[number, string]> = [];
  let id = 1;
  const kinds: Array<Partial<FixtureConcept>> = [
    {},
    { domain_id: 'Observation' },
    { standard_concept: null, domain_id: 'Drug' },
    { standard_concept: 'C', vocabulary_id: 'ICD10CM' },
    { invalid_reason: 'D' },
  ];
  // 300 distinct words containing "thu" (and 120 of them also "zor"): 12 frequent ones in 15
  // concepts each, the rest in one or two concepts; some only in a synonym.
  const words = new Set<string>();
  while (words.size < 300) words.add(`${letters(1 + Math.floor(random() * 3))}thu${letters(1 + Math.floor(random() * 3))}`);
  [...words].forEach((word, i) => {
    const uses = i < 12 ? 15 : 1 + (i % 2);
    for (let u = 0; u < uses; u++) {
      const kind = kinds[(i + u) % kinds.length]!;
      const other = i % 5 === 0 ? `${letters(2)}zor${letters(2)}` : letters(6);
      if ((i + u) % 7 === 3) {
        concepts.push({ concept_id: id, concept_name: `Plain ${other} finding`, concept_code: `K${id}`, ...kind });
        synonyms.push([id, `${word} ${letters(5)}`]);
      } else {
        concepts.push({ concept_id: id, concept_name: `${letters(4)} ${word} ${other}`, concept_code: `K${id}`, ...kind });
      }
      id++;
    }
  });
  // 300 distinct words starting with "plo" (more than are listed one by one: a prefix term), and 30
  // words with "plo" inside.
  const starting = new Set<string>();
  while (starting.size < 300) starting.add(`plo${letters(3)}`);
  [...starting].forEach((word, i) => concepts.push({ concept_id: id, concept_name: `${letters(4)} ${word}`, concept_code: `K${id++}`, ...kinds[i % kinds.length]! }));
  for (let i = 0; i < 30; i++) concepts.push({ concept_id: id, concept_name: `${letters(2)}plo${letters(2)} sign`, concept_code: `K${id++}` });
  // Concepts without the fragment.
  for (let i = 0; i < 200; i++) concepts.push({ concept_id: id, concept_name: `${letters(5)} fever ${letters(4)}zor`, concept_code: `K${id++}` });
  return { concepts, synonyms };
}

/** Brute force over the written CSV files: valid concepts whose name or a synonym has a word containing every fragment. */
function expectedIds(dir: string, fragments: readonly string[]): Set<number> {
  const rows = (file: string) =>
    readFileSync(join(dir, file), 'utf8')
      .split('\n')
      .slice(1)
      .filter((l) => l.length > 0)
      .map((l) => l.split('\t'));
  const textOf = new Map<number, string[]>();
  const valid = new Set<number>();
  for (const r of rows('CONCEPT.csv')) {
    textOf.set(Number(r[0]), [r[1]!]);
    if (!r[9]) valid.add(Number(r[0]));
  }
  for (const r of rows('CONCEPT_SYNONYM.csv')) textOf.get(Number(r[0]))!.push(r[1]!);
  const out = new Set<number>();
  for (const [conceptId, texts] of textOf) {
    const words = texts.join(' ').toLowerCase().split(/[^a-z0-9]+/);
    if (valid.has(conceptId) && fragments.every((f) => words.some((w) => w.includes(f)))) out.add(conceptId);
  }
  return out;
}

let server: TestServer;
let dir: string;
beforeAll(async () => {
  dir = writeAthenaFixture(buildFixture());
  server = await startTestServer({ releases: [{ dir, label: '2025.2' }] });
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every result of a search, walking the pages; and the total_items of the first page. */
async function allResults(query: string): Promise<{ ids: number[]; total: number }> {
  const ids: number[] = [];
  let total = -1;
  for (let page = 1; ; page++) {
    const res = await server.request(`/v1/search/concepts?query=${encodeURIComponent(query)}&page_size=100&page=${page}`);
    expect(res.status).toBe(200);
    if (page === 1) total = res.body.meta.pagination.total_items;
    ids.push(...(res.body.data as Array<{ concept_id: number }>).map((c) => c.concept_id));
    if (!res.body.meta.pagination.has_next) break;
  }
  return { ids, total };
}

describe('substring matching is complete (E4 matching rule 2)', () => {
  it('the fixture really has the fragment in far more than 64 distinct words', () => {
    const words = new Set(readFileSync(join(dir, 'CONCEPT.csv'), 'utf8').toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.includes('thu')));
    expect(words.size).toBeGreaterThan(250);
  });

  /** Every concept containing `fragment` (more than `atLeast` of them) is returned once and counted. */
  async function expectComplete(fragment: string, atLeast: number) {
    const expected = expectedIds(dir, [fragment]);
    expect(expected.size).toBeGreaterThan(atLeast);
    const { ids, total } = await allResults(fragment);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids)).toEqual(expected);
    expect(total).toBe(expected.size);
  }

  it('a fragment in hundreds of words: every concept containing it is returned once and counted', async () => {
    await expectComplete('thu', 400);
  });

  it('a word part that starts hundreds of words and is inside others: every concept containing it is returned and counted', async () => {
    await expectComplete('plo', 250);
  });

  it('two fragments, each in many words: every concept containing both is returned and counted', async () => {
    const expected = expectedIds(dir, ['thu', 'zor']);
    expect(expected.size).toBeGreaterThan(50);
    const { ids, total } = await allResults('thu zor');
    expect(new Set(ids)).toEqual(expected);
    expect(total).toBe(expected.size);
  });

});
