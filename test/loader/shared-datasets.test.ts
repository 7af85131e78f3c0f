/** Loads the real vocabulary subsets of ../shared/vocab and checks counts and the anomaly summary. */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadRelease } from '../../src/importer/load-release.js';
import { listReleaseBuilds } from '../../src/store/data-dir.js';
import { openSqliteRelease } from '../../src/store/sqlite/open-sqlite-release.js';
import { SHARED_VOCAB_DIR } from './loader-fixtures.js';
import { sharedVocabMissing } from '../helpers/shared-vocab.js';

const MISSING_SHARED_VOCAB = sharedVocabMissing('eunomia-synthea27nj', 'eunomia-gibleed-2019', 'dbt-synthea-2024', 'ohdsi-tutorial-etl-2024');

const dataDir = mkdtempSync(join(tmpdir(), 'omopterm-shared-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const anomaly = (result: Awaited<ReturnType<typeof loadRelease>>, kind: string) => result.manifest.anomalies.find((a) => a.kind === kind);

describe.skipIf(MISSING_SHARED_VOCAB)('eunomia-synthea27nj (comma CSV, gzipped CONCEPT_RELATIONSHIP)', () => {
  it('loads every row, keeps dangling relationships and reports them', async () => {
    const result = await loadRelease({ sourceDir: join(SHARED_VOCAB_DIR, 'eunomia-synthea27nj'), dataDir, label: '2022.2', quiet: true });
    const t = result.manifest.tables;
    expect(t.concept).toMatchObject({ rows_read: 2294, rows_stored: 2294, file: 'CONCEPT.csv' });
    expect(t.concept_relationship).toMatchObject({ rows_read: 266_588, rows_stored: 266_588, file: 'CONCEPT_RELATIONSHIP.csv.gz' });
    expect(t.concept_ancestor).toMatchObject({ rows_read: 0, rows_stored: 0 });
    expect(t.vocabulary!.rows_stored).toBe(1);
    expect(result.ignoredFiles).toEqual(['SOURCE_TO_CONCEPT_MAP.csv']);
    expect(result.manifest.source_vocabulary_version).toBe('v5.0 09-APR-22*');
    expect(result.manifest.release_date).toBe('2022-04-09');

    // Only 5,178 relationship rows have both ends in CONCEPT (shared/vocab/README.md).
    const dangling = anomaly(result, 'dangling_relationship_concept')!;
    expect(dangling.count).toBe(266_588 - 5_178);
    expect(dangling.examples).toHaveLength(3);
    expect(dangling.examples[0]).toBe('CONCEPT_RELATIONSHIP.csv.gz:2: concept_id_2 40487785 not in CONCEPT');
    // VOCABULARY holds only the 'None' row, so every concept's vocabulary is unknown to it.
    expect(anomaly(result, 'unknown_vocabulary_id')!.count).toBe(2294);
    // DOMAIN / CONCEPT_CLASS / RELATIONSHIP are header-only: not checked, not reported.
    expect(anomaly(result, 'unknown_domain_id')).toBeUndefined();
    expect(anomaly(result, 'unknown_relationship_id')).toBeUndefined();
    expect(anomaly(result, 'duplicate_relationship')).toBeUndefined();

    const build = listReleaseBuilds(dataDir).find((b) => b.label === '2022.2')!;
    const store = openSqliteRelease(build);
    try {
      expect(store.concepts.byId(201826)?.concept_name).toBe('Type 2 diabetes mellitus');
      expect(store.concepts.byId(40316773)).toMatchObject({ standard_concept: null, invalid_reason: 'U', valid_end_date: '2002-01-31' });
      // vocabulary_summary: UCUM 1,042, SNOMED 701, LOINC 300, RxNorm 246, Visit 3, Ethnicity 2 (shared/vocab/README.md).
      const summary = store.metadata.vocabularies().filter((v) => v.concept_count > 0);
      expect(Object.fromEntries(summary.map((v) => [v.vocabulary_id, v.concept_count]))).toEqual({
        UCUM: 1042,
        SNOMED: 701,
        LOINC: 300,
        RxNorm: 246,
        Visit: 3,
        Ethnicity: 2,
      });
    } finally {
      store.close();
    }
  });
});

describe.skipIf(MISSING_SHARED_VOCAB)('eunomia-gibleed-2019 (duplicate concept 40213200, ancestors, synonyms)', () => {
  it('keeps the first of a duplicate concept id and reports duplicates and dangling ids', async () => {
    const result = await loadRelease({ sourceDir: join(SHARED_VOCAB_DIR, 'eunomia-gibleed-2019'), dataDir, label: '2019.1', quiet: true });
    const t = result.manifest.tables;
    expect(t.concept).toMatchObject({ rows_read: 436, rows_stored: 435 });
    expect(t.concept_ancestor).toMatchObject({ rows_read: 65_690, rows_stored: 63_158 });
    expect(t.concept_synonym).toMatchObject({ rows_read: 1064, rows_stored: 1064 });
    expect(t.concept_relationship).toMatchObject({ rows_read: 0, rows_stored: 0 });
    expect(t.vocabulary!.rows_stored).toBe(125);
    expect(t.domain!.rows_stored).toBe(45);
    expect(t.relationship!.rows_stored).toBe(480);
    expect(result.manifest.release_date).toBe('2019-01-18');

    expect(anomaly(result, 'duplicate_concept_id')).toEqual({
      kind: 'duplicate_concept_id',
      description: expect.stringContaining('first row was kept'),
      count: 1,
      examples: ['CONCEPT.csv:87: concept_id 40213200 was already read; this row was dropped'],
    });
    const duplicates = anomaly(result, 'duplicate_ancestor')!;
    expect(duplicates.count).toBe(2532);
    expect(duplicates.examples[0]).toMatch(/^CONCEPT_ANCESTOR\.csv:\d+: \(ancestor_concept_id=\d+, descendant_concept_id=\d+\) repeats line \d+ \(kept\)/);
    // 609 of the 65,690 ancestor rows read have both ends present (shared/vocab/README.md); of the rows
    // stored (duplicates dropped), those that do not are counted once each, so the counts add up.
    const dangling = anomaly(result, 'dangling_ancestor_concept')!.count;
    const db = new Database(result.storePath, { readonly: true });
    try {
      const bothPresent = db
        .prepare('SELECT count(*) FROM concept_ancestor WHERE ancestor_concept_id IN (SELECT concept_id FROM concept) AND descendant_concept_id IN (SELECT concept_id FROM concept)')
        .pluck()
        .get() as number;
      expect(bothPresent).toBeLessThanOrEqual(609);
      expect(dangling).toBe(63_158 - bothPresent);
    } finally {
      db.close();
    }
    expect(anomaly(result, 'dangling_synonym_concept')).toBeUndefined();

    const store = openSqliteRelease(listReleaseBuilds(dataDir).find((b) => b.label === '2019.1')!);
    try {
      expect(store.concepts.byId(40213200)?.concept_name).toBe('pneumococcal polysaccharide vaccine, 23 valent');
      expect(store.concepts.synonyms(4329847).map((s) => s.concept_synonym_name)).toContain('Heart attack');
      const cvx = store.metadata.vocabulary('CVX')!;
      expect(cvx.concept_count).toBe(15); // 16 CVX rows, one of them the duplicate
      expect(cvx.standard_count).toBe(15);
    } finally {
      store.close();
    }
  });
});

describe.skipIf(MISSING_SHARED_VOCAB)('datasets without a CONCEPT table', () => {
  it.each(['dbt-synthea-2024', 'ohdsi-tutorial-etl-2024'])('%s is refused with a clear message', async (name) => {
    await expect(loadRelease({ sourceDir: join(SHARED_VOCAB_DIR, name), dataDir, label: '2024.1', quiet: true })).rejects.toThrow(
      /no CONCEPT table in .*: expected CONCEPT\.csv or CONCEPT\.csv\.gz/,
    );
    expect(listReleaseBuilds(dataDir).some((b) => b.label === '2024.1')).toBe(false);
  });
});
