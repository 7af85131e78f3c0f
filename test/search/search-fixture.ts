/**
 * Opens a release store for search tests. `openFixtureStore` writes the fixture in Athena format and
 * loads it with the real loader (loadRelease), then opens it the way the server does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeAthenaFixture, type FixtureConcept, type FixtureVocabulary } from '../helpers/athena-fixture.js';
import { loadRelease } from '../../src/importer/load-release.js';
import { LicenceRules } from '../../src/licences/licence-rules.js';
import { ReleaseView } from '../../src/services/release-view.js';
import { listReleaseBuilds, type ReleaseBuild } from '../../src/store/data-dir.js';
import type { ReleaseStore } from '../../src/store/release-store.js';
import { openSqliteRelease } from '../../src/store/sqlite/open-sqlite-release.js';

export interface FixtureStore {
  store: ReleaseStore;
  /** The loaded build (for opening the same store elsewhere, e.g. in a helper thread). */
  build: ReleaseBuild;
  close(): void;
}

export async function openFixtureStore(fixture: FixtureVocabulary): Promise<FixtureStore> {
  const dataDir = mkdtempSync(join(tmpdir(), 'omopterm-search-'));
  const sourceDir = writeAthenaFixture(fixture);
  await loadRelease({ sourceDir, dataDir, label: '2025.2', quiet: true });
  const build = listReleaseBuilds(dataDir)[0]!;
  const store = openSqliteRelease(build);
  return {
    store,
    build,
    close: () => {
      store.close();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(sourceDir, { recursive: true, force: true });
    },
  };
}

/** A caller who may see everything but GPI/MedDRA, and one without CPT4 rights. */
export const licensed = () => new LicenceRules('2999-12-31');
export const unlicensed = () => new LicenceRules(null);

let nextId = 1_000_000;
/** A concept with defaults (standard SNOMED Condition, Clinical Finding); a fresh id unless given. */
export function concept(name: string, fields: Partial<FixtureConcept> = {}): FixtureConcept {
  const id = fields.concept_id ?? nextId++;
  return { concept_id: id, concept_name: name, concept_code: `C${id}`, ...fields };
}

import { searchConcepts, type ConceptSearchRecord, type KeywordSearchRequest } from '../../src/services/search/keyword-search.js';

/** Runs a keyword search as a licensed caller (service contract). */
export function run(store: ReleaseStore, query: string, options: Omit<KeywordSearchRequest, 'query'> = {}, policy = licensed()) {
  return searchConcepts(new ReleaseView(store, policy), { pageSize: 200, ...options, query });
}

export const ids = (items: readonly ConceptSearchRecord[]) => items.map((i) => i.concept_id);
export const names = (items: readonly ConceptSearchRecord[]) => items.map((i) => i.concept_name);
