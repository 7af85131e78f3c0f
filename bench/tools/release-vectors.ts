/**
 * The semantic vectors of a data directory's first release, for the measuring tools in this folder
 * (semantic-reachability.ts, hnsw-sweep.ts): the served index and provider (opened as the server
 * opens them), a random sample of its concepts, and a concept's own vector as the index stores it
 * (the normalised mean of its name's and synonyms' vectors, test/helpers/unit-mean.ts).
 */
import Database from 'better-sqlite3';
import { SemanticIndexRegistry } from '../../src/services/semantic/semantic-index-registry.js';
import type { SemanticIndex } from '../../src/store/semantic-index.js';
import { listReleaseBuilds } from '../../src/store/data-dir.js';
import { publishedEmbeddingFiles, readCurrentEmbedding } from '../../src/store/semantic-dir.js';
import { openSqliteSemanticIndex } from '../../src/store/sqlite/sqlite-semantic-index.js';
import { unitMean } from '../../test/helpers/unit-mean.js';

export interface ReleaseVectors {
  label: string;
  index: SemanticIndex;
  /** `n` random concepts that have a vector. */
  sampleConceptIds(n: number): number[];
  /** The concept's vector as the index stores it, recomputed with the served provider. */
  conceptVector(conceptId: number): Promise<Float32Array>;
  /** The unit vector of one text, as a query's. */
  textVector(text: string): Promise<Float32Array>;
  /** The served vector file. */
  vectorsPath: string;
  close(): Promise<void>;
}

export async function openReleaseVectors(dataDir: string): Promise<ReleaseVectors> {
  const build = listReleaseBuilds(dataDir)[0];
  if (!build) throw new Error(`no release in ${dataDir}`);
  const current = readCurrentEmbedding(build.dir);
  if (!current) throw new Error(`release ${build.label} has no vectors`);
  const registry = new SemanticIndexRegistry({ choice: { kind: 'lexicon' }, openIndex: openSqliteSemanticIndex, recheckIntervalMs: 0, retireDelayMs: 60_000 });
  const lookup = await registry.get({ label: build.label, build });
  if (!lookup.ok) throw new Error(lookup.message);
  const files = publishedEmbeddingFiles(build.dir, current.embeddingId);
  const entries = new Database(files.entriesPath, { readonly: true });
  return {
    label: build.label,
    index: lookup.index,
    sampleConceptIds: (n) => entries.prepare('SELECT DISTINCT concept_id FROM entries ORDER BY random() LIMIT ?').pluck().all(n) as number[],
    conceptVector: async (conceptId) => unitMean(await lookup.provider.embed(lookup.index.entriesOfConcepts([conceptId]).map((e) => e.text))),
    textVector: async (text) => unitMean(await lookup.provider.embed([text])),
    vectorsPath: files.vectorsPath,
    close: async () => {
      entries.close();
      await registry.close();
    },
  };
}
