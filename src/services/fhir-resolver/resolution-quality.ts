/**
 * The resolver's `mapping_quality` (E7 `include_quality`): high, medium, low or manual_review from the kind of
 * resolution, one step down for each of a misaligned domain, an invalid source and an IG target not valid
 * standard.
 */
import type { AdministrativeMapping } from './administrative-concept-maps.js';
import type { DomainResourceAlignment, MappingQuality, MappingType } from './resolution.js';

/** A semantic match at least this similar is `medium` (below it, `low`). */
export const SEMANTIC_MEDIUM_SIMILARITY = 0.9;

const LADDER: readonly MappingQuality[] = ['high', 'medium', 'low', 'manual_review'];

export interface ResolutionFacts {
  mappingType: MappingType;
  alignment: DomainResourceAlignment;
  /** Standard targets of the source's `Maps to` rows (mapped only). */
  targetCount?: number;
  /** The source also has a `Maps to value` row. */
  hasValue?: boolean;
  /** The source concept has an invalid_reason. */
  sourceInvalid?: boolean;
  /** The concept resolved to is not a valid standard concept of the release (an IG map's choice). */
  targetNotStandard?: boolean;
  /** semantic_match only. */
  similarity?: number;
  /** Set when an IG ConceptMap resolved the code. */
  administrative?: AdministrativeMapping;
}

function baseQuality(facts: ResolutionFacts): MappingQuality {
  if (facts.mappingType === 'unmapped') return 'manual_review';
  if (facts.mappingType === 'direct') return 'high';
  if (facts.mappingType === 'semantic_match') return (facts.similarity ?? 0) >= SEMANTIC_MEDIUM_SIMILARITY ? 'medium' : 'low';
  const admin = facts.administrative;
  if (admin) {
    if (!admin.published || admin.relationship === 'related-to' || admin.relationship === 'not-related-to') return 'low';
    return admin.relationship === 'equivalent' ? 'high' : 'medium';
  }
  return (facts.targetCount ?? 1) > 1 || facts.hasValue ? 'medium' : 'high';
}

export function rateResolution(facts: ResolutionFacts): MappingQuality {
  let step = LADDER.indexOf(baseQuality(facts));
  if (facts.alignment === 'misaligned') step++;
  if (facts.sourceInvalid) step++;
  if (facts.targetNotStandard) step++;
  return LADDER[Math.min(step, LADDER.length - 1)] ?? 'manual_review';
}
