/** The demo vocabulary loaded once into a scratch data directory and opened as the server opens it (for the mapping tests). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_VOCABULARY_DIR } from '../../src/cli/commands/demo.js';
import { LicenceRules } from '../../src/licences/licence-rules.js';
import { ReleaseView } from '../../src/services/release-view.js';
import { listReleaseBuilds, type ReleaseBuild } from '../../src/store/data-dir.js';
import type { ReleaseStore } from '../../src/store/release-store.js';
import { openSqliteRelease } from '../../src/store/sqlite/open-sqlite-release.js';
import { loadCachedRelease } from '../helpers/release-cache.js';

export interface DemoRelease {
  dataDir: string;
  build: ReleaseBuild;
  store: ReleaseStore;
  /** The release seen by a key with a current CPT4 validation, and by one without. */
  licensed: ReleaseView;
  unlicensed: ReleaseView;
  close(): void;
}

export async function openDemoRelease(): Promise<DemoRelease> {
  const dataDir = mkdtempSync(join(tmpdir(), 'omopterm-mapping-'));
  await loadCachedRelease(DEMO_VOCABULARY_DIR, dataDir, '2025.2', true);
  const build = listReleaseBuilds(dataDir)[0]!;
  const store = openSqliteRelease(build);
  const release = { label: '2025.2', buildId: build.buildId, store, build };
  return {
    dataDir,
    build,
    store,
    licensed: ReleaseView.ofRelease(release, new LicenceRules('2999-12-31')),
    unlicensed: ReleaseView.ofRelease(release, new LicenceRules(null)),
    close: () => {
      store.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A concept row of the demo vocabulary's CONCEPT.csv (the independent reference for expected values). */
export interface DemoConcept {
  concept_id: number;
  concept_name: string;
  domain_id: string;
  vocabulary_id: string;
  concept_class_id: string;
  standard_concept: string;
  concept_code: string;
}

import { readFileSync } from 'node:fs';
export function demoConcepts(): DemoConcept[] {
  const [header, ...rows] = readFileSync(join(DEMO_VOCABULARY_DIR, 'CONCEPT.csv'), 'utf8').trimEnd().split('\n');
  const cols = header!.split('\t');
  return rows.map((r) => {
    const f = r.split('\t');
    const get = (name: string) => f[cols.indexOf(name)]!;
    return {
      concept_id: Number(get('concept_id')),
      concept_name: get('concept_name'),
      domain_id: get('domain_id'),
      vocabulary_id: get('vocabulary_id'),
      concept_class_id: get('concept_class_id'),
      standard_concept: get('standard_concept'),
      concept_code: get('concept_code'),
    };
  });
}

/** The `Maps to` targets of a concept, read from the demo vocabulary's CONCEPT_RELATIONSHIP.csv. */
export function demoMapsTo(conceptId: number): number[] {
  return readFileSync(join(DEMO_VOCABULARY_DIR, 'CONCEPT_RELATIONSHIP.csv'), 'utf8')
    .split('\n')
    .map((l) => l.split('\t'))
    .filter((f) => Number(f[0]) === conceptId && f[2] === 'Maps to' && !f[5])
    .map((f) => Number(f[1]));
}
