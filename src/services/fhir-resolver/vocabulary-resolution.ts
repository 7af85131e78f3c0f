/**
 * Resolution of a concept of the release (E7 rules 2 and 4): a standard concept is `direct`, any other is
 * standardised through its valid `Maps to` rows (`mapped`), and with no visible standard target it gets the
 * concept_id 0 sentinel.
 */
import { briefConcept } from '../concepts/concept-brief.js';
import { MAPS_TO } from '../mappings/concept-mappings.js';
import type { ConceptRecord } from '../../store/records.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { cdmTargetOf, expectedDomains, VALUE_AS_CONCEPT_FIELD } from './cdm-target.js';
import { codeCandidates } from './code-normalization.js';
import { alignmentOf, finishResolution, sentinelResolution, tableOf } from './resolution-assembly.js';
import type { ResolverContext } from './resolver-context.js';
import type { AlternativeStandardConcept, Resolution, ResolveOptions, ResourceType } from './resolution.js';

export { MAPS_TO };
export const MAPS_TO_VALUE = 'Maps to value';
/** Most `Maps to`/`Maps to value` rows read for one source concept (real one-to-many maps have a handful). */
const MAX_MAP_ROWS = 50;
/** Rank of a domain among the resource type's expected ones (lower is more expected; unexpected last). */
function domainRank(domainId: string, resourceType: ResourceType | undefined): number {
  if (!resourceType) return 0;
  const at = expectedDomains(resourceType).indexOf(domainId);
  return at < 0 ? Number.MAX_SAFE_INTEGER : at;
}

function invalidNote(source: ConceptRecord): string | null {
  if (source.invalid_reason === 'U') return `The source concept ${source.concept_id} was updated (invalid_reason U); its current Maps to was followed.`;
  if (source.invalid_reason === 'D') return `The source concept ${source.concept_id} is deprecated (invalid_reason D).`;
  return null;
}

/** Standardises a concept of the release (rules 2 and 4). */
export function resolveConcept(ctx: ResolverContext, source: ConceptRecord, resourceType: ResourceType | undefined, options: ResolveOptions): Resolution {
  const sourceBrief = briefConcept(source);
  if (source.standard_concept === 'S' && source.invalid_reason === null) {
    const resolution: Resolution = {
      vocabulary_id: source.vocabulary_id,
      source_concept: sourceBrief,
      standard_concept: sourceBrief,
      mapping_type: 'direct',
      relationship_id: MAPS_TO,
      ...tableOf(source.domain_id),
      ...alignmentOf(source.domain_id, resourceType),
      quality_note: null,
    };
    return finishResolution(ctx, resolution, options, {});
  }
  const rows = ctx.view.store.concepts.related(source.concept_id, [MAPS_TO, MAPS_TO_VALUE], MAX_MAP_ROWS);
  const visible = (c: ConceptRecord) => ctx.view.canSee(c.vocabulary_id) && c.concept_id !== source.concept_id;
  const targets = rows
    .filter((r) => r.relationship_id === MAPS_TO && r.concept.standard_concept === 'S' && visible(r.concept))
    .map((r) => r.concept)
    .sort((a, b) => domainRank(a.domain_id, resourceType) - domainRank(b.domain_id, resourceType) || a.concept_id - b.concept_id);
  const values = rows
    .filter((r) => r.relationship_id === MAPS_TO_VALUE && visible(r.concept))
    .map((r) => r.concept)
    .sort((a, b) => a.concept_id - b.concept_id);
  const [primary, ...others] = targets;
  if (!primary) {
    const hidden = rows.find((r) => r.relationship_id === MAPS_TO && r.concept.standard_concept === 'S' && !ctx.view.canSee(r.concept.vocabulary_id));
    if (hidden) ctx.view.assertVisible(hidden.concept.vocabulary_id);
    const why =
      source.standard_concept === 'C'
        ? `${source.vocabulary_id} ${source.concept_code} is a classification concept; it has no standard Maps to target.`
        : `${source.vocabulary_id} ${source.concept_code} has no valid Maps to a standard concept.`;
    return sentinelResolution(
      ctx,
      sourceBrief,
      source.vocabulary_id,
      resourceType,
      `${why} Record it with *_concept_id 0 and *_source_concept_id ${source.concept_id} (spec E7 rule 4).`,
      options,
    );
  }
  const resolution: Resolution = {
    vocabulary_id: source.vocabulary_id,
    source_concept: sourceBrief,
    standard_concept: briefConcept(primary),
    mapping_type: 'mapped',
    relationship_id: MAPS_TO,
    ...tableOf(primary.domain_id),
    ...alignmentOf(primary.domain_id, resourceType),
    quality_note: invalidNote(source),
  };
  if (values[0]) {
    resolution.value_as_concept = briefConcept(values[0]);
    resolution.value_target_field = VALUE_AS_CONCEPT_FIELD;
  }
  if (others.length > 0) {
    resolution.alternative_standard_concepts = others.map(
      (c): AlternativeStandardConcept => ({ ...briefConcept(c), target_table: cdmTargetOf(c.domain_id)?.table ?? null }),
    );
    const more = `${source.vocabulary_id} ${source.concept_code} maps to ${targets.length} standard concepts; each is a record of its own domain's table (alternative_standard_concepts).`;
    resolution.quality_note = resolution.quality_note ? `${resolution.quality_note} ${more}` : more;
  }
  return finishResolution(ctx, resolution, options, {
    targetCount: targets.length,
    hasValue: values.length > 0,
    sourceInvalid: source.invalid_reason !== null,
  });
}

/** The release's spelling of a vocabulary id sent in another case ('icd10cm' → 'ICD10CM'); the id as sent when the release has none. */
export function releaseVocabularyId(store: ReleaseStore, vocabularyId: string): string {
  if (store.metadata.vocabulary(vocabularyId)) return vocabularyId;
  const lower = vocabularyId.toLowerCase();
  return store.metadata.vocabularies().find((v) => v.vocabulary_id.toLowerCase() === lower)?.vocabulary_id ?? vocabularyId;
}

/** The source concept of a vocabulary and code (the normalised forms tried in order), or undefined. */
export function lookUpCode(store: ReleaseStore, vocabularyIds: readonly string[], code: string): ConceptRecord | undefined {
  for (const vocabularyId of vocabularyIds) {
    for (const candidate of codeCandidates(vocabularyId, code)) {
      const found = store.concepts.byCode(vocabularyId, candidate);
      if (found) return found;
    }
  }
  return undefined;
}
