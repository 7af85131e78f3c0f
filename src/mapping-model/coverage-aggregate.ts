/**
 * Mapping coverage per source vocabulary, source domain and target vocabulary, accumulated in one pass over the
 * valid concepts in concept_id order (once per release, by src/importer/mapping-quality-summary.ts); pure, no SQL,
 * no HTTP.
 */

import type { SourceDomainCoverage, TargetDomainCoverage } from '../store/mapping-quality-records.js';

export const UNMAPPED_SAMPLE_LIMIT = 100;

interface SourceState {
  domains: Map<string, SourceDomainCoverage>;
  targets: string[];
  cells: Map<string, TargetDomainCoverage>;
}

const cellKey = (domainId: string, targetVocabularyId: string) => `${domainId}\u0000${targetVocabularyId}`;

export class CoverageAccumulator {
  private readonly sources = new Map<string, SourceState>();

  /** One valid source concept, in ascending concept_id order, with the vocabularies its 'Maps to' rows reach. */
  add(vocabularyId: string, domainId: string, conceptId: number, mappedVocabularies: ReadonlySet<string>): void {
    let source = this.sources.get(vocabularyId);
    if (!source) this.sources.set(vocabularyId, (source = { domains: new Map(), targets: [], cells: new Map() }));
    let domain = source.domains.get(domainId);
    if (!domain) {
      domain = { source_vocabulary_id: vocabularyId, domain_id: domainId, source_concepts: 0, first_concepts: [] };
      source.domains.set(domainId, domain);
      for (const target of source.targets) source.cells.set(cellKey(domainId, target), this.emptyCell(vocabularyId, domainId, target, []));
    }
    for (const target of mappedVocabularies) {
      if (source.targets.includes(target)) continue;
      source.targets.push(target);
      // Every concept seen before this one was not mapped to the new target.
      for (const d of source.domains.values()) {
        source.cells.set(cellKey(d.domain_id, target), this.emptyCell(vocabularyId, d.domain_id, target, [...d.first_concepts]));
      }
    }
    domain.source_concepts++;
    if (domain.first_concepts.length < UNMAPPED_SAMPLE_LIMIT) domain.first_concepts.push(conceptId);
    for (const target of source.targets) {
      const cell = source.cells.get(cellKey(domainId, target))!;
      if (mappedVocabularies.has(target)) cell.mapped_concepts++;
      else if (cell.unmapped_concepts.length < UNMAPPED_SAMPLE_LIMIT) cell.unmapped_concepts.push(conceptId);
    }
  }

  private emptyCell(source: string, domain: string, target: string, unmapped: number[]): TargetDomainCoverage {
    return { source_vocabulary_id: source, domain_id: domain, target_vocabulary_id: target, mapped_concepts: 0, unmapped_concepts: unmapped };
  }

  sourceDomains(): SourceDomainCoverage[] {
    return [...this.sources.values()].flatMap((s) => [...s.domains.values()]);
  }

  targetDomains(): TargetDomainCoverage[] {
    return [...this.sources.values()].flatMap((s) => [...s.cells.values()]);
  }
}
