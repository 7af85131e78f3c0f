/**
 * GET /v1/mappings/coverage: how much of a source vocabulary maps into a target vocabulary, per
 * source domain, from the load-time coverage tables (src/mapping-model/coverage-aggregate.ts says what counts).
 */
import type { ReleaseView } from '../release-view.js';
import type { ReleaseStore } from '../../store/release-store.js';
import type { ConceptRecord } from '../../store/records.js';
import { requireVocabulary } from '../vocabularies/vocabulary-catalog.js';
import { percentage } from './confidence-distribution.js';
import { UNMAPPED_SAMPLE_LIMIT } from '../../mapping-model/coverage-aggregate.js';

export interface CoverageRequest {
  source_vocabulary: string;
  target_vocabulary: string;
  /** Only these source domains (all when absent). */
  domain_ids?: readonly string[];
}

export interface DomainCoverage {
  domain_id: string;
  domain_name: string;
  source_concepts: number;
  mapped_concepts: number;
  /** 0–100, 2 decimals; null when the domain has no valid source concept. */
  coverage_percentage: number | null;
}

export interface CoverageReport {
  source_vocabulary: string;
  target_vocabulary: string;
  domain_coverage: DomainCoverage[];
  total_source_concepts: number;
  total_mapped_concepts: number;
  /** 0–100, 2 decimals; null when there is no valid source concept. */
  overall_coverage: number | null;
  /** The first unmapped valid source concepts by concept_id (at most 100). */
  unmapped_concepts: ConceptRecord[];
  definitions: Record<string, string>;
}

export function mappingCoverage(view: ReleaseView, request: CoverageRequest): CoverageReport {
  const source = requireVocabulary(view, request.source_vocabulary);
  const target = requireVocabulary(view, request.target_vocabulary);
  const domainNames = new Map(view.store.metadata.domains().map((d) => [d.domain_id, d.domain_name]));
  const sources = new Map(view.store.mappingQuality.sourceCoverage(source.vocabulary_id).map((s) => [s.domain_id, s]));
  const targets = new Map(view.store.mappingQuality.targetCoverage(source.vocabulary_id, target.vocabulary_id).map((t) => [t.domain_id, t]));
  const domainIds = request.domain_ids ? [...new Set(request.domain_ids)] : [...sources.keys()];

  const domain_coverage: DomainCoverage[] = [];
  const unmappedIds: number[] = [];
  for (const domainId of domainIds.sort()) {
    const s = sources.get(domainId);
    const t = targets.get(domainId);
    const sourceConcepts = s?.source_concepts ?? 0;
    const mapped = t?.mapped_concepts ?? 0;
    domain_coverage.push({
      domain_id: domainId,
      domain_name: domainNames.get(domainId) ?? domainId,
      source_concepts: sourceConcepts,
      mapped_concepts: mapped,
      coverage_percentage: percentage(mapped, sourceConcepts),
    });
    // Without any mapping into the target, every concept of the domain is unmapped.
    unmappedIds.push(...(t ? t.unmapped_concepts : (s?.first_concepts ?? [])));
  }
  const firstUnmapped = unmappedIds.sort((a, b) => a - b).slice(0, UNMAPPED_SAMPLE_LIMIT);
  const unmapped = view.store.concepts.byIds(firstUnmapped).sort((a, b) => a.concept_id - b.concept_id);
  const totalSource = domain_coverage.reduce((n, d) => n + d.source_concepts, 0);
  const totalMapped = domain_coverage.reduce((n, d) => n + d.mapped_concepts, 0);
  return {
    source_vocabulary: source.vocabulary_id,
    target_vocabulary: target.vocabulary_id,
    domain_coverage,
    total_source_concepts: totalSource,
    total_mapped_concepts: totalMapped,
    overall_coverage: percentage(totalMapped, totalSource),
    unmapped_concepts: unmapped,
    definitions: {
      source_concepts: 'valid concepts (invalid_reason empty) of the source vocabulary in the domain',
      mapped_concepts: "source concepts with at least one valid 'Maps to' row to a concept of the target vocabulary",
      coverage_percentage: 'mapped_concepts / source_concepts × 100 (null without source concepts)',
      unmapped_concepts: `the first ${UNMAPPED_SAMPLE_LIMIT} unmapped source concepts of the listed domains, by concept_id`,
    },
  };
}
