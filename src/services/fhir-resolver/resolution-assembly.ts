/**
 * The parts every kind of resolution is assembled from: the concept_id 0 sentinel, a source that
 * is not a concept of the release, the CDM target and domain alignment of a domain, the rule 4
 * sentinel resolution, and the extras a caller asks for (mapping_quality, recommendations).
 */
import { briefConcept } from '../concepts/concept-brief.js';
import { recommendConcepts } from '../related/concept-recommendations.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { cdmTargetOf, domainAlignment } from './cdm-target.js';
import { rateResolution, type ResolutionFacts } from './resolution-quality.js';
import type { ResolverContext } from './resolver-context.js';
import type { Recommendation, Resolution, ResolveOptions, ResolvedConcept, ResourceType, SourceConcept } from './resolution.js';

/** The "No matching concept" sentinel: the release's concept 0 when it has one. */
export function sentinelConcept(store: ReleaseStore): ResolvedConcept {
  const zero = store.concepts.byId(0);
  if (zero) return briefConcept(zero);
  return {
    concept_id: 0,
    concept_name: 'No matching concept',
    concept_code: 'No matching concept',
    vocabulary_id: 'None',
    domain_id: 'Metadata',
    concept_class_id: 'Undefined',
    standard_concept: null,
  };
}

/** A source that is not a concept of the release: concept_id 0 carrying what the caller sent. */
export function unknownSource(code: string | undefined, display: string | undefined, vocabularyId: string | null): SourceConcept {
  return {
    concept_id: 0,
    concept_name: display ?? code ?? '',
    concept_code: code ?? '',
    vocabulary_id: vocabularyId,
    domain_id: null,
    concept_class_id: null,
    standard_concept: null,
  };
}

export function tableOf(domainId: string | null): Pick<Resolution, 'target_table' | 'target_field'> {
  const target = domainId ? cdmTargetOf(domainId) : null;
  return target ? { target_table: target.table, target_field: target.field } : { target_table: null };
}

export function alignmentOf(domainId: string | null, resourceType: ResourceType | undefined): Pick<Resolution, 'domain_resource_alignment' | 'alignment_note'> {
  if (!domainId) return { domain_resource_alignment: 'not_checked' };
  const { alignment, note } = domainAlignment(domainId, resourceType);
  return note ? { domain_resource_alignment: alignment, alignment_note: note } : { domain_resource_alignment: alignment };
}

function withRecommendations(ctx: ResolverContext, resolution: Resolution, options: ResolveOptions): void {
  if (!options.includeRecommendations || resolution.recommendations) return;
  const standardId = resolution.standard_concept.concept_id;
  if (standardId === 0) {
    resolution.recommendations = [];
    return;
  }
  const found = recommendConcepts(ctx.view, {
    conceptIds: [standardId],
    relationshipIds: null,
    vocabularyIds: null,
    domainIds: null,
    standardOnly: true,
    includeInvalid: false,
    offset: 0,
    limit: options.recommendationsLimit,
  });
  resolution.recommendations = (found.recommendations[String(standardId)] ?? []).map(
    (r): Recommendation => ({ ...briefConcept(r), relationship_id: r.relationship_id }),
  );
}

/** Adds the options' extras (quality, recommendations) and returns the resolution. */
export function finishResolution(ctx: ResolverContext, resolution: Resolution, options: ResolveOptions, facts: QualityFacts): Resolution {
  if (options.includeQuality) resolution.mapping_quality = rateResolution({ ...facts, mappingType: resolution.mapping_type, alignment: resolution.domain_resource_alignment });
  withRecommendations(ctx, resolution, options);
  return resolution;
}

/** What the quality rule needs beyond the resolution's own mapping type and alignment. */
export type QualityFacts = Omit<ResolutionFacts, 'mappingType' | 'alignment'>;

/** Rule 4: a source with no standard target. */
export function sentinelResolution(
  ctx: ResolverContext,
  source: SourceConcept,
  vocabularyId: string | null,
  resourceType: ResourceType | undefined,
  qualityNote: string,
  options: ResolveOptions,
): Resolution {
  const resolution: Resolution = {
    vocabulary_id: vocabularyId,
    source_concept: source,
    standard_concept: sentinelConcept(ctx.view.store),
    mapping_type: 'unmapped',
    ...tableOf(source.domain_id),
    ...alignmentOf(source.domain_id, resourceType),
    quality_note: qualityNote,
  };
  return finishResolution(ctx, resolution, options, {});
}
