/**
 * GET /v1/domains/{domain_id}/concepts: a domain's concepts in the browse order, filtered by vocabulary, standard
 * flag and validity; each (validity, standard flag, vocabulary) group is a store segment, so totals are sums and
 * pages are seeks.
 */
import type { ReleaseView } from '../release-view.js';
import type { ConceptRecord } from '../../store/records.js';
import type { DomainSegment, ReleaseStore } from '../../store/release-store.js';
import { compareIds, visibleSummary } from '../concept-tallies.js';

export interface DomainConceptsRequest {
  domainId: string;
  /** Keep only these vocabularies (each must be visible to the caller: 403 otherwise). */
  vocabularyIds?: readonly string[];
  /** Only standard concepts (standard_concept 'S'). */
  standardOnly?: boolean;
  /** Also concepts with an invalid_reason (default false). */
  includeInvalid?: boolean;
  offset: number;
  limit: number;
}

const STANDARD_ORDER = { S: 0, C: 1, none: 2 } as const;
const standardRank = (s: 'S' | 'C' | null) => STANDARD_ORDER[s ?? 'none'];

/** The segments the request selects, in browse order, with their sizes. */
function selectedSegments(view: ReleaseView, request: DomainConceptsRequest): Array<{ segment: DomainSegment; size: number }> {
  const wanted = request.vocabularyIds ? new Set(request.vocabularyIds) : undefined;
  const sizes = new Map<string, { segment: DomainSegment; size: number }>();
  for (const row of visibleSummary(view)) {
    if (row.domain_id !== request.domainId || (wanted && !wanted.has(row.vocabulary_id))) continue;
    if ((request.standardOnly && row.standard_concept !== 'S') || (!request.includeInvalid && row.is_invalid)) continue;
    const key = `${row.vocabulary_id}\u0000${row.standard_concept}\u0000${row.is_invalid}`;
    const entry = sizes.get(key);
    if (entry) entry.size += row.concept_count;
    else {
      const segment = { domainId: row.domain_id, vocabularyId: row.vocabulary_id, standardConcept: row.standard_concept, isInvalid: row.is_invalid };
      sizes.set(key, { segment, size: row.concept_count });
    }
  }
  return [...sizes.values()].sort(
    ({ segment: a }, { segment: b }) =>
      Number(a.isInvalid) - Number(b.isInvalid) ||
      standardRank(a.standardConcept) - standardRank(b.standardConcept) ||
      compareIds(a.vocabularyId, b.vocabularyId),
  );
}

export function listDomainConcepts(view: ReleaseView, request: DomainConceptsRequest): { items: ConceptRecord[]; total: number } {
  for (const v of request.vocabularyIds ?? []) view.assertVisible(v);
  const segments = selectedSegments(view, request);
  const total = segments.reduce((sum, s) => sum + s.size, 0);
  const items: ConceptRecord[] = [];
  let skip = request.offset;
  for (const { segment, size } of segments) {
    if (items.length >= request.limit) break;
    if (skip >= size) {
      skip -= size;
      continue;
    }
    items.push(...view.store.metadata.domainSegmentConcepts(segment, skip, request.limit - items.length));
    skip = 0;
  }
  return { items, total };
}
