/**
 * `omopterm synth` at 1 % of the full release, loaded with the real loader: the shape statistics of
 * the August 2025 release hold within ±10 %, every relationship has its reverse, CONCEPT_ANCESTOR
 * is exactly the closure of the ancestry relationships, and codes are shaped like the real ones.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRelease } from '../../src/importer/load-release.js';
import {
  ATC_PATTERN,
  conceptsForScale,
  DEFAULT_SEED,
  FULL_RELEASE,
  FULL_VOCABULARY_COUNTS,
  ICD10CM_PATTERN,
  isValidLoincCode,
  isValidVerhoeff,
  PER_CONCEPT,
  synthesize,
  type SynthResult,
} from '../../src/synth/index.js';

const N = conceptsForScale(0.01);
let work: string;
let db: Database.Database;
let synth: SynthResult;

function count(sql: string, ...params: unknown[]): number {
  return (db.prepare(sql).pluck().get(...params) as number) ?? 0;
}

function expectWithin(actual: number, expected: number, tolerance = 0.1): void {
  expect(actual / expected, `${actual} vs ${expected}`).toBeGreaterThanOrEqual(1 - tolerance);
  expect(actual / expected, `${actual} vs ${expected}`).toBeLessThanOrEqual(1 + tolerance);
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'omopterm-synth-'));
  synth = synthesize({ outDir: join(work, 'athena'), concepts: N, seed: DEFAULT_SEED });
  const loaded = await loadRelease({ sourceDir: join(work, 'athena'), dataDir: join(work, 'data'), label: '2025.2', quiet: true });
  db = new Database(loaded.storePath, { readonly: true });
}, 120_000);

afterAll(() => {
  db?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('omopterm synth at 1 % scale, loaded', () => {
  it('has exactly the requested number of concepts and the full reference tables', () => {
    expect(synth.concepts).toBe(N);
    expect(count('SELECT COUNT(*) FROM concept')).toBe(N);
    expect(count('SELECT COUNT(*) FROM concept_class')).toBe(FULL_RELEASE.conceptClasses);
    expect(count('SELECT COUNT(*) FROM domain')).toBe(FULL_RELEASE.domains);
    expect(count('SELECT COUNT(*) FROM relationship')).toBe(FULL_RELEASE.relationships);
    // every relationship type has its reverse in the table
    expect(count('SELECT COUNT(*) FROM relationship r LEFT JOIN relationship b ON b.relationship_id = r.reverse_relationship_id AND b.reverse_relationship_id = r.relationship_id WHERE b.relationship_id IS NULL')).toBe(0);
  });

  it('matches the release rows per concept within ±10 %', () => {
    expectWithin(count('SELECT COUNT(*) FROM concept_relationship') / N, PER_CONCEPT.conceptRelationships);
    expectWithin(count('SELECT COUNT(*) FROM concept_ancestor') / N, PER_CONCEPT.conceptAncestors);
    expectWithin(count('SELECT COUNT(*) FROM concept_synonym') / N, PER_CONCEPT.conceptSynonyms);
    expectWithin(count('SELECT COUNT(*) FROM drug_strength') / N, PER_CONCEPT.drugStrengths);
  });

  it('has the vocabulary mix of the release within ±10 %', () => {
    for (const [vocab, full] of Object.entries(FULL_VOCABULARY_COUNTS)) {
      const share = count('SELECT COUNT(*) FROM concept WHERE vocabulary_id = ?', vocab) / N;
      expectWithin(share, full / FULL_RELEASE.concepts);
    }
    // the remaining vocabularies of a US download are present too
    for (const vocab of ['ICD10CM', 'CPT4', 'Gender', 'Race', 'Ethnicity', 'Visit', 'UCUM', 'Vocabulary', 'Domain', 'Concept Class', 'Relationship']) {
      expect(count('SELECT COUNT(*) FROM concept WHERE vocabulary_id = ?', vocab), vocab).toBeGreaterThan(0);
    }
  });

  it('has realistic standard / classification / non-standard / invalid proportions', () => {
    const share = (where: string): number => count(`SELECT COUNT(*) FROM concept WHERE ${where}`) / N;
    expect(share("standard_concept = 'S'")).toBeGreaterThan(0.5);
    expect(share("standard_concept = 'S'")).toBeLessThan(0.75);
    expect(share("standard_concept = 'C'")).toBeGreaterThan(0.005);
    expect(share('standard_concept IS NULL AND invalid_reason IS NULL')).toBeGreaterThan(0.12);
    expect(share("invalid_reason = 'D'")).toBeGreaterThan(0.05);
    expect(share("invalid_reason = 'U'")).toBeGreaterThan(0.01);
    // invalid concepts are never standard
    expect(count("SELECT COUNT(*) FROM concept WHERE invalid_reason IS NOT NULL AND standard_concept IS NOT NULL")).toBe(0);
    // most valid non-standard clinical concepts map to a standard one, and every Maps to target is valid and standard
    const sourceVocabs = "('dm+d', 'Read', 'ICD10CM', 'ICD10')";
    const mapped = count(
      `SELECT COUNT(DISTINCT c.concept_id) FROM concept c JOIN concept_relationship r ON r.concept_id_1 = c.concept_id AND r.relationship_id = 'Maps to'
       WHERE c.vocabulary_id IN ${sourceVocabs} AND c.standard_concept IS NULL AND c.invalid_reason IS NULL AND c.concept_class_id NOT IN ('Supplier', 'Dose Form')`,
    );
    const total = count(`SELECT COUNT(*) FROM concept WHERE vocabulary_id IN ${sourceVocabs} AND standard_concept IS NULL AND invalid_reason IS NULL AND concept_class_id NOT IN ('Supplier', 'Dose Form')`);
    expect(mapped / total).toBeGreaterThan(0.85);
    expect(
      count(
        `SELECT COUNT(*) FROM concept_relationship r JOIN concept t ON t.concept_id = r.concept_id_2
         WHERE r.relationship_id = 'Maps to' AND (t.standard_concept IS NOT 'S' OR t.invalid_reason IS NOT NULL)`,
      ),
    ).toBe(0);
    // standard concepts map to themselves
    expect(count("SELECT COUNT(*) FROM concept c WHERE c.standard_concept = 'S' AND c.invalid_reason IS NULL AND NOT EXISTS (SELECT 1 FROM concept_relationship r WHERE r.concept_id_1 = c.concept_id AND r.concept_id_2 = c.concept_id AND r.relationship_id = 'Maps to')")).toBe(0);
  });

  it('has LOINC structural and questionnaire classes, Meas Value answers and Maps to value', () => {
    for (const cls of ['Lab Test', 'Clinical Observation', 'Survey', 'Answer', 'LOINC Component', 'LOINC System', 'LOINC Hierarchy']) {
      expect(count("SELECT COUNT(*) FROM concept WHERE vocabulary_id = 'LOINC' AND concept_class_id = ?", cls), cls).toBeGreaterThan(0);
    }
    expect(count("SELECT COUNT(*) FROM concept WHERE domain_id = 'Meas Value' AND concept_class_id = 'Answer'")).toBeGreaterThan(50);
    expect(count("SELECT COUNT(*) FROM concept_relationship WHERE relationship_id = 'Maps to value'")).toBeGreaterThan(0);
    expect(count("SELECT COUNT(*) FROM concept_relationship WHERE relationship_id = 'Value mapped from'")).toBe(count("SELECT COUNT(*) FROM concept_relationship WHERE relationship_id = 'Maps to value'"));
    expect(count("SELECT COUNT(*) FROM concept_relationship WHERE relationship_id = 'Has Answer'")).toBeGreaterThan(100);
  });

  it('has every relationship in both directions', () => {
    const missing = count(`
      SELECT COUNT(*) FROM concept_relationship r
      JOIN relationship t ON t.relationship_id = r.relationship_id
      WHERE NOT EXISTS (
        SELECT 1 FROM concept_relationship b
        WHERE b.concept_id_1 = r.concept_id_2 AND b.relationship_id = t.reverse_relationship_id AND b.concept_id_2 = r.concept_id_1)`);
    expect(missing).toBe(0);
    for (const [a, b] of [['Maps to', 'Mapped from'], ['Is a', 'Subsumes'], ['Maps to value', 'Value mapped from'], ['RxNorm has ing', 'RxNorm ing of']]) {
      const n = count('SELECT COUNT(*) FROM concept_relationship WHERE relationship_id = ?', a);
      expect(n, a).toBeGreaterThan(0);
      expect(count('SELECT COUNT(*) FROM concept_relationship WHERE relationship_id = ?', b), b).toBe(n);
    }
  });

  it('has CONCEPT_ANCESTOR equal to the closure of the ancestry relationships (with min/max levels)', () => {
    // eligible: valid standard or classification concepts
    const eligible = new Set(db.prepare("SELECT concept_id FROM concept WHERE standard_concept IN ('S', 'C') AND invalid_reason IS NULL").pluck().all() as number[]);
    const edges = db
      .prepare(
        `SELECT r.concept_id_1 AS a, r.concept_id_2 AS d, t.is_hierarchical AS h FROM concept_relationship r
         JOIN relationship t ON t.relationship_id = r.relationship_id WHERE t.defines_ancestry = '1' AND r.invalid_reason IS NULL`,
      )
      .all() as Array<{ a: number; d: number; h: string }>;
    const parents = new Map<number, Array<[number, number]>>();
    for (const e of edges) {
      if (!eligible.has(e.a) || !eligible.has(e.d)) continue;
      const list = parents.get(e.d) ?? [];
      list.push([e.a, e.h === '1' ? 1 : 0]);
      parents.set(e.d, list);
    }
    // memoised closure (DAG): ancestor → [min, max]
    const memo = new Map<number, Map<number, [number, number]>>();
    const closureOf = (c: number, stack: Set<number>): Map<number, [number, number]> => {
      const known = memo.get(c);
      if (known) return known;
      if (stack.has(c)) throw new Error(`cycle at ${c}`);
      stack.add(c);
      const out = new Map<number, [number, number]>([[c, [0, 0]]]);
      for (const [p, w] of parents.get(c) ?? []) {
        for (const [a, [mn, mx]] of closureOf(p, stack)) {
          const cur = out.get(a);
          if (!cur) out.set(a, [mn + w, mx + w]);
          else out.set(a, [Math.min(cur[0], mn + w), Math.max(cur[1], mx + w)]);
        }
      }
      stack.delete(c);
      memo.set(c, out);
      return out;
    };
    let expected = 0;
    for (const c of eligible) expected += closureOf(c, new Set()).size;
    expect(count('SELECT COUNT(*) FROM concept_ancestor')).toBe(expected);
    let mismatches = 0;
    for (const row of db.prepare('SELECT ancestor_concept_id AS a, descendant_concept_id AS d, min_levels_of_separation AS mn, max_levels_of_separation AS mx FROM concept_ancestor').iterate() as IterableIterator<{ a: number; d: number; mn: number; mx: number }>) {
      const lv = memo.get(row.d)?.get(row.a);
      if (!lv || lv[0] !== row.mn || lv[1] !== row.mx) mismatches++;
    }
    expect(mismatches).toBe(0);
    // every `Is a` between hierarchy concepts is a one-level ancestor row
    expect(
      count(
        `SELECT COUNT(*) FROM concept_relationship r JOIN concept a ON a.concept_id = r.concept_id_2 JOIN concept d ON d.concept_id = r.concept_id_1
         WHERE r.relationship_id = 'Is a' AND a.standard_concept IN ('S', 'C') AND d.standard_concept IN ('S', 'C') AND a.invalid_reason IS NULL AND d.invalid_reason IS NULL
         AND NOT EXISTS (SELECT 1 FROM concept_ancestor x WHERE x.ancestor_concept_id = r.concept_id_2 AND x.descendant_concept_id = r.concept_id_1 AND x.min_levels_of_separation = 1)`,
      ),
    ).toBe(0);
    // deep hierarchies: SNOMED reaches well over 10 levels
    expect(count("SELECT MAX(max_levels_of_separation) FROM concept_ancestor x JOIN concept c ON c.concept_id = x.descendant_concept_id WHERE c.vocabulary_id = 'SNOMED'")).toBeGreaterThanOrEqual(12);
  });

  it('shapes codes like the source vocabularies', () => {
    const codes = (vocab: string, cls?: string): string[] =>
      db.prepare(`SELECT concept_code FROM concept WHERE vocabulary_id = ?${cls ? ' AND concept_class_id = ?' : ''}`).pluck().all(...(cls ? [vocab, cls] : [vocab])) as string[];
    const loinc = codes('LOINC').filter((c) => /^(L[PAG])?\d+-\d$/.test(c));
    expect(loinc.length).toBeGreaterThan(count("SELECT COUNT(*) FROM concept WHERE vocabulary_id = 'LOINC'") * 0.95);
    expect(loinc.filter((c) => !isValidLoincCode(c))).toEqual([]);
    expect(codes('LOINC', 'Lab Test').every((c) => /^\d+-\d$/.test(c))).toBe(true);
    expect(codes('ICD10CM').filter((c) => !ICD10CM_PATTERN.test(c))).toEqual([]);
    expect(codes('SNOMED').filter((c) => !/^\d{6,18}$/.test(c) || !isValidVerhoeff(c))).toEqual([]);
    expect(codes('ATC').filter((c) => !ATC_PATTERN.test(c))).toEqual([]);
    expect(codes('RxNorm').every((c) => /^\d+$/.test(c))).toBe(true);
    expect(codes('RxNorm Extension').every((c) => /^OMOP\d+$/.test(c))).toBe(true);
    expect(codes('HCPCS', 'HCPCS').every((c) => /^[A-Z]\d{4}$/.test(c))).toBe(true);
    // codes are unique within a vocabulary (metadata concepts all have the code 'OMOP generated', as in Athena)
    expect(count("SELECT COUNT(*) FROM (SELECT vocabulary_id, concept_code FROM concept WHERE concept_code <> 'OMOP generated' GROUP BY 1, 2 HAVING COUNT(*) > 1)")).toBe(0);
  });

  it('has names that behave like real ones for search', () => {
    const names = db.prepare('SELECT concept_name FROM concept').pluck().all() as string[];
    const lengths = names.map((n) => n.length).sort((a, b) => a - b);
    const median = lengths[Math.floor(lengths.length / 2)]!;
    expect(median).toBeGreaterThanOrEqual(30);
    expect(median).toBeLessThanOrEqual(60);
    expect(lengths[lengths.length - 1]).toBeGreaterThan(200);
    // document frequency of words: a few very common words, a long tail of rare ones
    const df = new Map<string, number>();
    for (const n of names) for (const w of new Set(n.toLowerCase().split(/[^a-z]+/).filter((x) => x.length > 1))) df.set(w, (df.get(w) ?? 0) + 1);
    const sorted = [...df.values()].sort((a, b) => b - a);
    expect(sorted[0]! / N).toBeGreaterThan(0.2);
    expect(df.get('tablet')! / N).toBeGreaterThan(0.05);
    expect(df.get('of')! / N).toBeGreaterThan(0.2);
    expect(df.get('disorder')! / N).toBeGreaterThan(0.005);
    expect(sorted.filter((c) => c <= 3).length / sorted.length).toBeGreaterThan(0.4);
    // names are mostly unique within a vocabulary
    const dup = count('SELECT COALESCE(SUM(n - 1), 0) FROM (SELECT COUNT(*) AS n FROM concept GROUP BY vocabulary_id, concept_name HAVING COUNT(*) > 1)');
    expect(dup / N).toBeLessThan(0.08);
    // synonyms include FSNs, reorderings and abbreviations
    expect(count("SELECT COUNT(*) FROM concept_synonym WHERE concept_synonym_name LIKE '%(disorder)'")).toBeGreaterThan(100);
    expect(count("SELECT COUNT(*) FROM concept_synonym s JOIN concept c USING (concept_id) WHERE c.vocabulary_id = 'LOINC' AND s.concept_synonym_name LIKE '%SerPl%'")).toBeGreaterThan(5);
  });
});

describe('omopterm synth files', () => {
  it('are in the Athena download format and deterministic for a seed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'omopterm-synth-det-'));
    try {
      const a = synthesize({ outDir: join(dir, 'a'), concepts: 6000, seed: 7 });
      const b = synthesize({ outDir: join(dir, 'b'), concepts: 6000, seed: 7 });
      synthesize({ outDir: join(dir, 'c'), concepts: 6000, seed: 8 });
      expect(a.rows).toEqual(b.rows);
      for (const f of ['CONCEPT.csv', 'CONCEPT_RELATIONSHIP.csv', 'CONCEPT_ANCESTOR.csv', 'CONCEPT_SYNONYM.csv', 'DRUG_STRENGTH.csv', 'VOCABULARY.csv', 'RELATIONSHIP.csv']) {
        expect(readFileSync(join(dir, 'a', f)).equals(readFileSync(join(dir, 'b', f))), f).toBe(true);
      }
      expect(readFileSync(join(dir, 'a', 'CONCEPT.csv')).equals(readFileSync(join(dir, 'c', 'CONCEPT.csv')))).toBe(false);

      const lines = readFileSync(join(dir, 'a', 'CONCEPT.csv'), 'utf8').split('\n');
      expect(lines[0]).toBe('concept_id\tconcept_name\tdomain_id\tvocabulary_id\tconcept_class_id\tstandard_concept\tconcept_code\tvalid_start_date\tvalid_end_date\tinvalid_reason');
      expect(lines[lines.length - 1]).toBe('');
      for (const line of lines.slice(1, -1)) {
        const f = line.split('\t');
        expect(f).toHaveLength(10);
        expect(f[7]).toMatch(/^\d{8}$/);
        expect(f[8]).toMatch(/^\d{8}$/);
        expect(['', 'S', 'C']).toContain(f[5]);
        expect(['', 'D', 'U']).toContain(f[9]);
      }
      const rel = readFileSync(join(dir, 'a', 'CONCEPT_RELATIONSHIP.csv'), 'utf8').split('\n');
      expect(rel[0]).toBe('concept_id_1\tconcept_id_2\trelationship_id\tvalid_start_date\tvalid_end_date\tinvalid_reason');
      expect(rel.slice(1, -1).every((l) => l.split('\t').length === 6)).toBe(true);
      const anc = readFileSync(join(dir, 'a', 'CONCEPT_ANCESTOR.csv'), 'utf8').split('\n');
      expect(anc[0]).toBe('ancestor_concept_id\tdescendant_concept_id\tmin_levels_of_separation\tmax_levels_of_separation');
      const ds = readFileSync(join(dir, 'a', 'DRUG_STRENGTH.csv'), 'utf8').split('\n');
      expect(ds.slice(1, -1).every((l) => l.split('\t').length === 12)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
