/**
 * The candidates of CodeSystem/$find-matches when only CONCEPT columns are asked for, read from the search index's
 * filter tags in static search rank, one tag query per level of properties held, bounded at `limit`.
 */
import type { ConceptRecord } from '../../store/records.js';
import type { ReleaseStore } from '../../store/release-store.js';
import type { IndexFilter, StandardFlag, TagAlternative, TagSet } from '../../store/search-store.js';
import type { ReleaseView } from '../release-view.js';
import { bandOf, partitionOf } from '../../search-model/ranking.js';
import type { ConceptCodeSystem } from './code-system-concept.js';

export type ColumnProperty = 'concept-class-id' | 'domain-id' | 'vocabulary-id' | 'standard-concept';

/** A column property's value as $lookup writes it: `standard-concept` is S, C or NS (non-standard). */
export const COLUMN_READERS: Record<ColumnProperty, (concept: Pick<ConceptRecord, 'concept_class_id' | 'domain_id' | 'vocabulary_id' | 'standard_concept'>) => string> = {
  'concept-class-id': (c) => c.concept_class_id,
  'domain-id': (c) => c.domain_id,
  'vocabulary-id': (c) => c.vocabulary_id,
  'standard-concept': (c) => c.standard_concept ?? 'NS',
};

export const isColumnProperty = (code: string): code is ColumnProperty => Object.hasOwn(COLUMN_READERS, code);

export interface ColumnCondition {
  code: ColumnProperty;
  value: string;
}

/** A Map, not an object literal: a value such as `constructor` must not find Object.prototype's members. */
const STANDARD_FLAGS = new Map<string, StandardFlag>([
  ['S', 'S'],
  ['C', 'C'],
  ['NS', 'N'],
]);

/** The tag set of some conditions, or undefined when a value can never match (a standard flag other than S, C, NS). */
function tagSet(conditions: readonly ColumnCondition[]): TagSet | undefined {
  const set: { vocabularyIds: string[]; domainIds: string[]; conceptClassIds: string[]; standardConcepts: StandardFlag[] } = {
    vocabularyIds: [],
    domainIds: [],
    conceptClassIds: [],
    standardConcepts: [],
  };
  for (const { code, value } of conditions) {
    if (code === 'vocabulary-id') set.vocabularyIds.push(value);
    else if (code === 'domain-id') set.domainIds.push(value);
    else if (code === 'concept-class-id') set.conceptClassIds.push(value);
    else {
      const flag = STANDARD_FLAGS.get(value);
      if (flag === undefined) return undefined;
      set.standardConcepts.push(flag);
    }
  }
  return set;
}

const conditionKey = (c: ColumnCondition) => `${c.code}\u0000${c.value}`;

/** The properties a group of concepts holds together, and how many of its concepts each search band holds. */
interface Level {
  combinations: Map<string, ColumnCondition[]>;
  bandCounts: Map<number, number>;
}

/** The concepts of `system` with the column properties `conditions` (see the header), at most `limit`, best first. */
export function columnPropertyMatches(
  view: ReleaseView,
  system: ConceptCodeSystem,
  conditions: readonly ColumnCondition[],
  exact: boolean,
  limit: number,
): ConceptRecord[] {
  const distinct = [...new Map(conditions.map((c) => [conditionKey(c), c])).values()];
  if (exact && new Set(distinct.map((c) => c.code)).size < distinct.length) return []; // a column asked with two values

  // Which combinations of the properties occur, and in which bands, from the concept summary (within the system, visible only).
  const levels = new Map<number, Level>();
  const inSystem = (vocabularyId: string) => system.kind === 'omop-concept-id' || system.vocabularyIds.includes(vocabularyId);
  for (const row of view.store.metadata.conceptSummary()) {
    if (!inSystem(row.vocabulary_id) || !view.canSee(row.vocabulary_id)) continue;
    const held = distinct.filter((c) => COLUMN_READERS[c.code](row) === c.value);
    if (!held.length || (exact && held.length < distinct.length)) continue;
    let level = levels.get(held.length);
    if (!level) levels.set(held.length, (level = { combinations: new Map(), bandCounts: new Map() }));
    level.combinations.set(held.map(conditionKey).join('\u0001'), held);
    const band = bandOf(partitionOf({ ...row, invalid_reason: row.is_invalid ? 'D' : null }), row.domain_id);
    level.bandCounts.set(band, (level.bandCounts.get(band) ?? 0) + row.concept_count);
  }

  const within: IndexFilter = {
    ...(system.kind === 'vocabulary' ? { vocabularyIds: system.vocabularyIds } : {}),
    hiddenVocabularyIds: view.hiddenVocabularyIds(),
  };
  const out: ConceptRecord[] = [];
  for (const [size, level] of [...levels].sort(([a], [b]) => b - a)) {
    if (out.length >= limit) break;
    const anyOf = [...level.combinations.values()].flatMap((held): TagAlternative[] => {
      const heldCodes = new Set(held.map((c) => c.code));
      const require = tagSet(held);
      // The other values of the columns a combination lacks: so that a concept is read at its own level only.
      const forbid = size === distinct.length ? {} : tagSet(distinct.filter((c) => !heldCodes.has(c.code) && (c.code !== 'standard-concept' || STANDARD_FLAGS.has(c.value))));
      return require && forbid ? [{ require, forbid }] : [];
    });
    if (!anyOf.length) continue;
    const ranks = view.store.search.tagMatches({ anyOf, within }, limit - out.length, level.bandCounts);
    out.push(...view.store.search.hitsByRank(ranks).map((hit) => hit.concept));
  }
  return out;
}
