/**
 * Stand-ins for the semantic services' collaborators, for tests of the services' own contract
 * (candidates, filters, thresholds, paging, licence rules) independent of how vectors are stored:
 * - `InMemorySemanticIndex`: the SemanticIndex contract by brute force over vectors held in memory;
 * - `spellingProvider()`: an EmbeddingProvider whose vectors are hashed words and character
 *   trigrams (so it knows spelling, not meaning) and which has no exact similarity(), so the
 *   services fall back to the cosine of embed() vectors;
 * - `indexedEntries()`: the names and synonyms of the valid standard and classification concepts of
 *   a vocabulary (the demo's by default), read from its CSV files.
 */
import type { EmbeddingProvider } from '../../src/search-model/semantic/embedding-provider.js';
import type { SemanticEntry, SemanticIndex, SemanticIndexMeta, SemanticNeighbour } from '../../src/store/semantic-index.js';
import { DEMO_VOCABULARY_DIR, readSourceConcepts, readSourceTable } from '../metadata/concept-file.js';

const DIMENSION = 512;

function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export function spellingProvider(): EmbeddingProvider {
  const vector = (text: string) => {
    const v = new Float32Array(DIMENSION);
    for (const word of text.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean)) {
      v[hash(`w:${word}`) % DIMENSION]! += 1;
      const padded = ` ${word} `;
      for (let i = 0; i + 3 <= padded.length; i++) v[hash(`t:${padded.slice(i, i + 3)}`) % DIMENSION]! += 0.5;
    }
    let norm = 0;
    for (const x of v) norm += x * x;
    norm = Math.sqrt(norm) || 1;
    for (let i = 0; i < DIMENSION; i++) v[i]! /= norm;
    return v;
  };
  return { id: 'test-spelling/1', dimension: DIMENSION, embed: async (texts) => texts.map(vector) };
}

export class InMemorySemanticIndex implements SemanticIndex {
  readonly meta: SemanticIndexMeta;
  /** How many nearest() calls were made, and the largest k asked for. */
  readonly calls = { nearest: 0, largestK: 0 };

  private constructor(
    private readonly rows: SemanticEntry[],
    private readonly vectors: Float32Array[],
    provider: EmbeddingProvider,
  ) {
    this.meta = {
      provider: provider.id,
      dimension: provider.dimension,
      entryCount: rows.length,
      conceptCount: new Set(rows.map((r) => r.concept_id)).size,
      builtAt: new Date(0).toISOString(),
      embeddingId: 'in-memory',
    };
  }

  static async build(provider: EmbeddingProvider, entries: ReadonlyArray<{ concept_id: number; text: string; is_synonym: boolean }>): Promise<InMemorySemanticIndex> {
    const rows = entries.map((e, key) => ({ key, ...e }));
    return new InMemorySemanticIndex(rows, await provider.embed(rows.map((r) => r.text)), provider);
  }

  providerState(): Uint8Array | null {
    return null;
  }

  /** Like the real index: one vector per concept, the normalised mean of its texts' vectors, brute force. */
  nearest(vector: Float32Array, k: number): SemanticNeighbour[] {
    this.calls.nearest++;
    this.calls.largestK = Math.max(this.calls.largestK, k);
    const sums = new Map<number, Float32Array>();
    this.rows.forEach((row, key) => {
      const sum = sums.get(row.concept_id) ?? new Float32Array(vector.length);
      this.vectors[key]!.forEach((x, i) => (sum[i]! += x));
      sums.set(row.concept_id, sum);
    });
    return [...sums]
      .map(([conceptId, sum]) => {
        const norm = Math.hypot(...sum) || 1;
        let dot = 0;
        for (let i = 0; i < sum.length; i++) dot += (sum[i]! / norm) * vector[i]!;
        return { conceptId, similarity: Math.min(1, Math.max(0, dot)) };
      })
      .sort((a, b) => b.similarity - a.similarity || a.conceptId - b.conceptId)
      .slice(0, k);
  }

  entriesOfConcepts(conceptIds: readonly number[]): SemanticEntry[] {
    const wanted = new Set(conceptIds);
    return this.rows.filter((r) => wanted.has(r.concept_id));
  }

  close(): void {}
}

/** Names and synonyms (each text once per concept, case-insensitively) of a fixture's valid S and C concepts. */
export function indexedEntries(dir = DEMO_VOCABULARY_DIR): Array<{ concept_id: number; text: string; is_synonym: boolean }> {
  const indexed = new Map(
    readSourceConcepts(dir)
      .filter((c) => (c.standard_concept === 'S' || c.standard_concept === 'C') && !c.invalid_reason)
      .map((c) => [c.concept_id, c]),
  );
  const out: Array<{ concept_id: number; text: string; is_synonym: boolean }> = [];
  const seen = new Set<string>();
  const add = (conceptId: number, text: string, isSynonym: boolean) => {
    const key = `${conceptId}\u0000${text.toLowerCase()}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ concept_id: conceptId, text, is_synonym: isSynonym });
  };
  for (const c of indexed.values()) add(c.concept_id, c.concept_name, false);
  for (const s of readSourceTable(dir, 'CONCEPT_SYNONYM.csv')) if (indexed.has(Number(s.concept_id))) add(Number(s.concept_id), s.concept_synonym_name!, true);
  return out;
}
