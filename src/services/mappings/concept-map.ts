/**
 * POST /v1/concepts/map: maps 1–MAP_MAX_SOURCES source concepts to one target vocabulary by `mapping_type`
 * (direct, equivalent, broader, narrower), from Athena's own tables only, with bounded reads and per-source
 * failures.
 */
import type { ReleaseView } from '../release-view.js';
import { validationError } from '../errors.js';
import type { BoundedResult, HierarchyMatch, MappingFilter, MappingRow } from '../../store/mapping-store.js';
import type { ConceptRecord } from '../../store/records.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { MAPS_TO, targetFields, visibleTargetFilter, type MappingTargetFields } from './concept-mappings.js';

export const MAP_MAX_SOURCES = 100;
export const MAX_TARGETS_PER_SOURCE = 100;
export const SCAN_LIMIT_PER_SOURCE = 10_000;
export const MAPPING_TYPES = ['direct', 'equivalent', 'broader', 'narrower'] as const;
export type MappingType = (typeof MAPPING_TYPES)[number];
export const DEFAULT_MAPPING_TYPE: MappingType = 'direct';

const MAPPED_FROM = 'Mapped from';
/** The relationship ids reported for CONCEPT_ANCESTOR matches, as concept lookups label them. */
const BROADER_RELATIONSHIP = 'Is a';
const NARROWER_RELATIONSHIP = 'Subsumes';

export interface SourceCode {
  vocabulary_id: string;
  concept_code: string;
}

export interface ConceptMapRequest {
  targetVocabulary: string;
  sourceConcepts?: readonly number[];
  sourceCodes?: readonly SourceCode[];
  mappingType: MappingType;
  includeInvalid: boolean;
}

export interface ConceptMapRecord extends MappingTargetFields {
  source_concept_id: number;
  source_concept_name: string;
  source_vocabulary_id: string;
  source_concept_code: string;
  relationship_id: string;
  mapping_type: MappingType;
  /** The relationship row's validity ('Maps to'/'Mapped from' rows; CONCEPT_ANCESTOR rows have none). */
  valid_start_date?: string;
  valid_end_date?: string;
  invalid_reason?: 'D' | 'U' | null;
  /** The standard concept the target was reached through (equivalent, broader, narrower), when not the source. */
  via_concept_id?: number;
  min_levels_of_separation?: number;
  max_levels_of_separation?: number;
}

export type FailureCode = 'concept_not_found' | 'vocabulary_restricted' | 'no_mapping';

export interface FailedMapping {
  source_concept_id?: number;
  source_code?: SourceCode;
  error_code: FailureCode;
  reason: string;
}

export interface ConceptMapResult {
  mappings: ConceptMapRecord[];
  failed_mappings: FailedMapping[];
  /** Sources whose targets may be incomplete (a per-source bound was reached). */
  truncated_sources: number[];
  summary: { total: number; mapped: number; failed: number; total_mappings: number };
}

/** One entry of the request: the concept it names, or why it names none. */
type ResolvedSource = { concept: ConceptRecord } | { failure: FailedMapping };

/** The targets found for one source, deduplicated by target concept. */
class TargetCollector {
  readonly records: ConceptMapRecord[] = [];
  complete = true;
  private readonly seen = new Set<number>();

  constructor(
    private readonly source: ConceptRecord,
    private readonly mappingType: MappingType,
  ) {}

  get full(): boolean {
    return this.records.length >= MAX_TARGETS_PER_SOURCE;
  }

  note<T>(result: BoundedResult<T>): T[] {
    if (!result.complete) this.complete = false;
    return result.items;
  }

  add(target: ConceptRecord, extra: Pick<ConceptMapRecord, 'relationship_id'> & Partial<ConceptMapRecord>): void {
    if (this.seen.has(target.concept_id)) return;
    if (this.full) {
      this.complete = false;
      return;
    }
    this.seen.add(target.concept_id);
    this.records.push({
      source_concept_id: this.source.concept_id,
      source_concept_name: this.source.concept_name,
      source_vocabulary_id: this.source.vocabulary_id,
      source_concept_code: this.source.concept_code,
      ...targetFields(target),
      mapping_type: this.mappingType,
      ...extra,
    });
  }

  addRow(row: MappingRow, via?: number): void {
    this.add(row.target, {
      relationship_id: row.relationship_id,
      valid_start_date: row.valid_start_date,
      valid_end_date: row.valid_end_date,
      invalid_reason: row.invalid_reason,
      ...(via === undefined ? {} : { via_concept_id: via }),
    });
  }

  addHierarchy(match: HierarchyMatch, relationshipId: string): void {
    this.add(match.concept, {
      relationship_id: relationshipId,
      ...(match.source_concept_id === this.source.concept_id ? {} : { via_concept_id: match.source_concept_id }),
      min_levels_of_separation: match.min_levels_of_separation,
      max_levels_of_separation: match.max_levels_of_separation,
    });
  }
}

function restricted(view: ReleaseView, vocabularyId: string, failure: Omit<FailedMapping, 'error_code' | 'reason'>): ResolvedSource {
  return { failure: { ...failure, error_code: 'vocabulary_restricted', reason: view.restrictionMessage(vocabularyId) } };
}

function resolveSources(view: ReleaseView, request: ConceptMapRequest): ResolvedSource[] {
  if (request.sourceConcepts) {
    const byId = new Map(view.store.concepts.byIds(request.sourceConcepts).map((c) => [c.concept_id, c]));
    return request.sourceConcepts.map((id): ResolvedSource => {
      const concept = byId.get(id);
      if (!concept) {
        return { failure: { source_concept_id: id, error_code: 'concept_not_found', reason: `Concept ${id} was not found in release ${view.store.manifest.label}.` } };
      }
      return view.canSee(concept.vocabulary_id) ? { concept } : restricted(view, concept.vocabulary_id, { source_concept_id: id });
    });
  }
  return sourceCodesOf(request).map((sourceCode): ResolvedSource => {
    if (!view.canSee(sourceCode.vocabulary_id)) return restricted(view, sourceCode.vocabulary_id, { source_code: sourceCode });
    const concept = view.store.concepts.byCode(sourceCode.vocabulary_id, sourceCode.concept_code);
    if (concept) return view.canSee(concept.vocabulary_id) ? { concept } : restricted(view, concept.vocabulary_id, { source_code: sourceCode });
    return {
      failure: {
        source_code: sourceCode,
        error_code: 'concept_not_found',
        reason: `No concept with code '${sourceCode.concept_code}' in vocabulary ${sourceCode.vocabulary_id} (release ${view.store.manifest.label}).`,
      },
    };
  });
}

/** The request's source codes as echoed in failures (only the two fields). */
function sourceCodesOf(request: ConceptMapRequest): SourceCode[] {
  return (request.sourceCodes ?? []).map((code) => ({ vocabulary_id: code.vocabulary_id, concept_code: code.concept_code }));
}

/** The source's 'Maps to' targets in any vocabulary the caller may see (the standard concepts it stands for). */
function standardConceptsOf(store: ReleaseStore, collector: TargetCollector, source: ConceptRecord, anyVisible: MappingFilter): ConceptRecord[] {
  return collector.note(store.mappings.scan(source.concept_id, MAPS_TO, anyVisible, MAX_TARGETS_PER_SOURCE, SCAN_LIMIT_PER_SOURCE)).map((row) => row.target);
}

function collectTargets(store: ReleaseStore, collector: TargetCollector, source: ConceptRecord, type: MappingType, inTarget: MappingFilter, anyVisible: MappingFilter): void {
  const read = <T>(result: BoundedResult<T>) => collector.note(result);
  switch (type) {
    case 'direct':
      for (const row of read(store.mappings.scan(source.concept_id, MAPS_TO, inTarget, MAX_TARGETS_PER_SOURCE, SCAN_LIMIT_PER_SOURCE))) collector.addRow(row);
      return;
    case 'equivalent': {
      for (const row of read(store.mappings.scan(source.concept_id, MAPS_TO, inTarget, MAX_TARGETS_PER_SOURCE, SCAN_LIMIT_PER_SOURCE))) collector.addRow(row);
      for (const standard of standardConceptsOf(store, collector, source, anyVisible)) {
        if (collector.full) break;
        for (const row of read(store.mappings.scan(standard.concept_id, MAPPED_FROM, inTarget, MAX_TARGETS_PER_SOURCE, SCAN_LIMIT_PER_SOURCE))) {
          if (row.target.concept_id !== source.concept_id) collector.addRow(row, standard.concept_id);
        }
      }
      return;
    }
    case 'broader':
    case 'narrower': {
      const starts = [source, ...standardConceptsOf(store, collector, source, anyVisible).filter((c) => c.concept_id !== source.concept_id)];
      for (const start of starts) {
        if (collector.full) break;
        const matches =
          type === 'broader'
            ? read(store.mappings.ancestors(start.concept_id, inTarget, MAX_TARGETS_PER_SOURCE))
            : read(store.mappings.descendants(start.concept_id, inTarget, MAX_TARGETS_PER_SOURCE, SCAN_LIMIT_PER_SOURCE));
        for (const match of matches) collector.addHierarchy(match, type === 'broader' ? BROADER_RELATIONSHIP : NARROWER_RELATIONSHIP);
      }
      return;
    }
  }
}

function noMapping(source: ConceptRecord, request: ConceptMapRequest, sourceCode: SourceCode | undefined): FailedMapping {
  return {
    ...(sourceCode ? { source_code: sourceCode } : { source_concept_id: source.concept_id }),
    error_code: 'no_mapping',
    reason: `Concept ${source.concept_id} (${source.vocabulary_id} ${source.concept_code}) has no ${request.mappingType} mapping to ${request.targetVocabulary}${
      request.includeInvalid ? '' : ' among valid mappings'
    }.`,
  };
}

export function mapConcepts(view: ReleaseView, request: ConceptMapRequest): ConceptMapResult {
  if ((request.sourceConcepts === undefined) === (request.sourceCodes === undefined)) {
    throw validationError(
      request.sourceConcepts === undefined
        ? "Give the concepts to map: exactly one of 'source_concepts' (concept ids) or 'source_codes' ({vocabulary_id, concept_code} objects)."
        : "Give exactly one of 'source_concepts' or 'source_codes', not both.",
      { parameter: 'source_concepts', location: 'body' },
    );
  }
  const inTarget = visibleTargetFilter(view, [request.targetVocabulary], request.includeInvalid);
  const anyVisible: MappingFilter = { ...inTarget, targetVocabularyIds: undefined };
  const result: ConceptMapResult = { mappings: [], failed_mappings: [], truncated_sources: [], summary: { total: 0, mapped: 0, failed: 0, total_mappings: 0 } };
  const codes = request.sourceCodes ? sourceCodesOf(request) : undefined;
  resolveSources(view, request).forEach((resolved, i) => {
    if ('failure' in resolved) {
      result.failed_mappings.push(resolved.failure);
      return;
    }
    const source = resolved.concept;
    const collector = new TargetCollector(source, request.mappingType);
    collectTargets(view.store, collector, source, request.mappingType, inTarget, anyVisible);
    if (!collector.complete) result.truncated_sources.push(source.concept_id);
    if (collector.records.length === 0) {
      result.failed_mappings.push(noMapping(source, request, codes?.[i]));
      return;
    }
    result.mappings.push(...collector.records);
    result.summary.mapped += 1;
  });
  result.summary.total = (request.sourceConcepts ?? request.sourceCodes ?? []).length;
  result.summary.failed = result.failed_mappings.length;
  result.summary.total_mappings = result.mappings.length;
  return result;
}
