/**
 * The load-time concept_summary table (src/importer/concept-summary.ts) through the store contract
 * (MetadataStore.conceptSummary): one row per (vocabulary, domain, class, standard flag, validity)
 * with the count and date range computed here from the CONCEPT file. The statistics endpoints rely
 * on it, so it is checked for every concept, licensed vocabularies included (the store does not
 * filter; the services do).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadRelease } from '../../src/importer/load-release.js';
import { listReleaseBuilds } from '../../src/store/data-dir.js';
import { openSqliteRelease } from '../../src/store/sqlite/open-sqlite-release.js';
import { DEMO_VOCABULARY_DIR, EUNOMIA_GIBLEED_DIR, readSourceConcepts } from './concept-file.js';
import { writeMetadataFixture } from './metadata-fixture.js';
import { sharedVocabMissing } from '../helpers/shared-vocab.js';

const GIBLEED_MISSING = sharedVocabMissing('eunomia-gibleed-2019');

const dataDir = mkdtempSync(join(tmpdir(), 'omopterm-summary-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe.each([
  ['demo vocabulary', DEMO_VOCABULARY_DIR, '2025.2'],
  ['eunomia-gibleed-2019', EUNOMIA_GIBLEED_DIR, '2019.1'],
  ['metadata fixture', writeMetadataFixture(), '2025.1'],
])('concept_summary of the %s', (_name, dir, label) => {
  it.skipIf(dir === EUNOMIA_GIBLEED_DIR && GIBLEED_MISSING)('has one row per group with its count, earliest/latest start and latest end date', async () => {
    await loadRelease({ sourceDir: dir, dataDir, label, quiet: true });
    const expected = new Map<string, { count: number; earliest: string; latestStart: string; latestEnd: string }>();
    for (const c of readSourceConcepts(dir)) {
      const key = [c.vocabulary_id, c.domain_id, c.concept_class_id, c.standard_concept ?? '', c.invalid_reason ? 1 : 0].join('|');
      const e = expected.get(key);
      if (!e) expected.set(key, { count: 1, earliest: c.valid_start_date, latestStart: c.valid_start_date, latestEnd: c.valid_end_date });
      else {
        e.count++;
        if (c.valid_start_date < e.earliest) e.earliest = c.valid_start_date;
        if (c.valid_start_date > e.latestStart) e.latestStart = c.valid_start_date;
        if (c.valid_end_date > e.latestEnd) e.latestEnd = c.valid_end_date;
      }
    }
    const store = openSqliteRelease(listReleaseBuilds(dataDir).find((b) => b.label === label)!);
    try {
      const rows = store.metadata.conceptSummary();
      const actual = new Map(
        rows.map((r) => [
          [r.vocabulary_id, r.domain_id, r.concept_class_id, r.standard_concept ?? '', r.is_invalid ? 1 : 0].join('|'),
          { count: r.concept_count, earliest: r.earliest_start_date, latestStart: r.latest_start_date, latestEnd: r.latest_end_date },
        ]),
      );
      expect(rows.length).toBe(actual.size);
      expect(actual).toEqual(expected);
    } finally {
      store.close();
    }
  });
});
