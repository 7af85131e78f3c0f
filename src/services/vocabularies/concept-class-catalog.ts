/**
 * The concept-class list (E1): the release's CONCEPT_CLASS table plus any class its concepts use that the table
 * lacks, sorted by concept_class_id, without classes the caller may not see.
 */
import type { ReleaseView } from '../release-view.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { compareIds, visibleSummary } from '../concept-tallies.js';

export interface ConceptClassEntry {
  concept_class_id: string;
  concept_class_name: string;
  concept_class_concept_id: number;
  /** Only with includeStats. */
  concept_count?: number;
  /** Vocabulary ids with concepts in the class (sorted); only with includeStats. */
  vocabulary_coverage?: string[];
}

export interface ConceptClassListOptions {
  vocabularyIds?: readonly string[];
  includeStats?: boolean;
}

export function listConceptClasses(view: ReleaseView, options: ConceptClassListOptions = {}): ConceptClassEntry[] {
  for (const v of options.vocabularyIds ?? []) view.assertVisible(v);
  const wanted = options.vocabularyIds ? new Set(options.vocabularyIds) : undefined;
  const inScope = new Map<string, { count: number; vocabularies: Set<string> }>();
  for (const row of visibleSummary(view)) {
    if (wanted && !wanted.has(row.vocabulary_id)) continue;
    let s = inScope.get(row.concept_class_id);
    if (!s) inScope.set(row.concept_class_id, (s = { count: 0, vocabularies: new Set() }));
    s.count += row.concept_count;
    s.vocabularies.add(row.vocabulary_id);
  }
  const withAnyConcept = new Set(view.store.metadata.conceptSummary().map((r) => r.concept_class_id));
  // Explicit fields, not object spread: spreading the store's row objects costs ~2 µs each.
  const classes = new Map<string, ConceptClassEntry>(
    view.store.metadata.conceptClasses().map((c) => [
      c.concept_class_id,
      { concept_class_id: c.concept_class_id, concept_class_name: c.concept_class_name, concept_class_concept_id: c.concept_class_concept_id },
    ]),
  );
  for (const id of inScope.keys()) {
    if (!classes.has(id)) classes.set(id, { concept_class_id: id, concept_class_name: id, concept_class_concept_id: 0 });
  }
  const kept = [...classes.values()].filter((c) =>
    wanted ? inScope.has(c.concept_class_id) : inScope.has(c.concept_class_id) || !withAnyConcept.has(c.concept_class_id),
  );
  kept.sort((a, b) => compareIds(a.concept_class_id, b.concept_class_id));
  if (!options.includeStats) return kept;
  for (const c of kept) {
    const s = inScope.get(c.concept_class_id);
    c.concept_count = s?.count ?? 0;
    c.vocabulary_coverage = s ? [...s.vocabularies].sort(compareIds) : [];
  }
  return kept;
}
