/**
 * The real vocabulary data the evaluation runs on: the project's demo vocabulary and the shared
 * datasets (../shared/vocab, see its README; `OMOPTERM_SHARED_VOCAB` points elsewhere, as for the tests). Each is
 * read once per run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { readAthenaTables, type AthenaRow, type AthenaTables } from './athena-tables.js';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export const DEMO_VOCABULARY_DIR = join(REPO_ROOT, 'examples/demo-vocabulary');

export function sharedVocabDir(): string {
  return resolve(REPO_ROOT, process.env.OMOPTERM_SHARED_VOCAB || '../shared/vocab');
}

/** The datasets by name: demo, gibleed (eunomia-gibleed-2019), synthea27nj, dbt-synthea, tutorial (ohdsi-tutorial-etl-2024). */
export interface SharedDatasets {
  demo: AthenaTables;
  gibleed: AthenaTables;
  synthea27nj: AthenaTables;
  dbtSynthea: AthenaTables;
  tutorial: AthenaTables;
  /** ohdsi-tutorial-etl-2024/SOURCE_TO_STANDARD_VOCAB_MAP.csv. */
  tutorialMap: AthenaRow[];
}

export async function readSharedDatasets(vocabDir = sharedVocabDir()): Promise<SharedDatasets> {
  if (!existsSync(join(vocabDir, 'ohdsi-tutorial-etl-2024'))) {
    throw new Error(`the shared datasets are not in ${vocabDir}: set OMOPTERM_SHARED_VOCAB to the directory holding eunomia-gibleed-2019/, ohdsi-tutorial-etl-2024/, …`);
  }
  return {
    demo: await readAthenaTables(DEMO_VOCABULARY_DIR),
    gibleed: await readAthenaTables(join(vocabDir, 'eunomia-gibleed-2019')),
    synthea27nj: await readAthenaTables(join(vocabDir, 'eunomia-synthea27nj')),
    dbtSynthea: await readAthenaTables(join(vocabDir, 'dbt-synthea-2024')),
    tutorial: await readAthenaTables(join(vocabDir, 'ohdsi-tutorial-etl-2024')),
    tutorialMap: parse(readFileSync(join(vocabDir, 'ohdsi-tutorial-etl-2024/SOURCE_TO_STANDARD_VOCAB_MAP.csv'), 'utf8'), {
      columns: true,
      skip_empty_lines: true,
    }) as AthenaRow[],
  };
}
