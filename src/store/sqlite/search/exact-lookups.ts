/**
 * The exact lookups of keyword search (rule 1 identifiers, exact names, exact synonyms) for a batch
 * of searches: every code, concept id, name hash and synonym hash the batch announced is fetched by
 * one statement per kind up front; a key not announced is fetched when asked for.
 */
import type { ExactLookupRequest, ExactLookups, SearchHit } from '../../search-store.js';
import { CONCEPT_COLUMNS, QUALIFIED_CONCEPT_COLUMNS, toConceptRecord, type StoredConceptRow } from '../rows/concept-rows.js';
import { pushTo, type StatementCache } from './statements.js';

/** A concept row with its search rank. */
export type RankedConceptRow = StoredConceptRow & { rank: number };

type LookupKind = 'code' | 'id' | 'name' | 'synonym';
type LookupKey = string | number;
type KeyedRow = RankedConceptRow & { key: LookupKey };

/** SQLite's NOCASE folds ASCII letters only; codes are grouped the same way. */
const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** Per kind of exact lookup: the statement (given the `IN` list), and the lookup key of a row. */
const EXACT_LOOKUPS: Record<LookupKind, { sql: (inList: string) => string; keyOf: (row: KeyedRow) => LookupKey }> = {
  code: {
    sql: (list) => `SELECT c.concept_code AS key, s.rank AS rank, ${QUALIFIED_CONCEPT_COLUMNS} FROM concept c JOIN search_concept s ON s.concept_id = c.concept_id
                     WHERE c.concept_code COLLATE NOCASE IN ${list}`,
    keyOf: (row) => asciiLower(String(row.key)),
  },
  id: {
    sql: (list) => `SELECT c.concept_id AS key, s.rank AS rank, ${QUALIFIED_CONCEPT_COLUMNS} FROM concept c JOIN search_concept s ON s.concept_id = c.concept_id
                     WHERE c.concept_id IN ${list}`,
    keyOf: (row) => Number(row.key),
  },
  name: {
    sql: (list) => `SELECT s.name_hash AS key, s.rank AS rank, ${QUALIFIED_CONCEPT_COLUMNS} FROM search_concept s JOIN concept c ON c.concept_id = s.concept_id
                     WHERE s.name_hash IN ${list}`,
    keyOf: (row) => Number(row.key),
  },
  synonym: {
    sql: (list) => `SELECT k.key_hash AS key, s.rank AS rank, ${QUALIFIED_CONCEPT_COLUMNS}
                      FROM search_synonym_key k JOIN search_concept s ON s.rank = k.rank JOIN concept c ON c.concept_id = s.concept_id
                     WHERE k.key_hash IN ${list}`,
    keyOf: (row) => Number(row.key),
  },
};

export class BatchedExactLookups implements ExactLookups {
  private readonly found: Record<LookupKind, Map<LookupKey, SearchHit[]>> = { code: new Map(), id: new Map(), name: new Map(), synonym: new Map() };
  private readonly fetched: Record<LookupKind, Set<LookupKey>> = { code: new Set(), id: new Set(), name: new Set(), synonym: new Set() };

  constructor(
    private readonly statements: StatementCache,
    requests: readonly ExactLookupRequest[],
  ) {
    this.fetch('code', requests.flatMap((r) => (r.code === undefined ? [] : [r.code])));
    this.fetch('id', requests.flatMap((r) => (r.conceptId === undefined ? [] : [r.conceptId])));
    this.fetch('name', requests.flatMap((r) => r.nameHashes));
    this.fetch('synonym', requests.flatMap((r) => r.synonymHashes));
  }

  private fetch(kind: LookupKind, keys: readonly LookupKey[]): void {
    const normal = (k: LookupKey) => (kind === 'code' ? asciiLower(String(k)) : k);
    const missing = new Map<LookupKey, LookupKey>();
    for (const k of keys) if (!this.fetched[kind].has(normal(k))) missing.set(normal(k), k);
    if (missing.size === 0) return;
    for (const k of missing.keys()) this.fetched[kind].add(k);
    const { sql, keyOf } = EXACT_LOOKUPS[kind];
    const list = this.statements.inList([...missing.values()]);
    const rows = this.statements.get(sql(list.sql)).all(...list.params) as KeyedRow[];
    rows.sort((a, b) => a.rank - b.rank);
    for (const row of rows) pushTo(this.found[kind], keyOf(row), { rank: row.rank, concept: toConceptRecord(row) });
  }

  private hitsOf(kind: LookupKind, key: LookupKey): SearchHit[] {
    this.fetch(kind, [key]);
    return this.found[kind].get(kind === 'code' ? asciiLower(String(key)) : key) ?? [];
  }

  identifierMatches(code: string, conceptId: number | undefined, limit: number): SearchHit[] {
    const hits = this.hitsOf('code', code).slice(0, limit);
    if (conceptId !== undefined && !hits.some((h) => h.concept.concept_id === conceptId)) hits.unshift(...this.hitsOf('id', conceptId));
    return hits;
  }

  nameKeyMatches(hash: number, limit: number): SearchHit[] {
    return this.hitsOf('name', hash).slice(0, limit);
  }

  synonymKeyMatches(hashes: readonly number[], limit: number): SearchHit[] {
    const byRank = new Map<number, SearchHit>();
    for (const h of hashes) for (const hit of this.hitsOf('synonym', h)) byRank.set(hit.rank, hit);
    return [...byRank.values()].sort((a, b) => a.rank - b.rank).slice(0, limit);
  }
}
