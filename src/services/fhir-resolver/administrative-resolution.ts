/**
 * Resolves administrative FHIR codes (E7 rule 5) through the FHIR-to-OMOP IG's ConceptMaps
 * (./administrative-concept-maps.ts), keeping the IG's target even where the release marks it non-standard or
 * deprecated.
 */
import { briefConcept } from '../concepts/concept-brief.js';
import { validationError } from '../errors.js';
import { administrativeConceptMapIds, administrativeMappings, type AdministrativeMapping } from './administrative-concept-maps.js';
import { finishResolution, sentinelConcept, unknownSource } from './resolution-assembly.js';
import type { ResolverContext } from './resolver-context.js';
import type { CodingInput, Resolution, ResolveOptions, ResolvedConcept, ResourceType } from './resolution.js';

/** The FHIR resource type each administrative ConceptMap serves (for domain_resource_alignment). */
const ADMINISTRATIVE_RESOURCE: Record<string, ResourceType> = {
  GenderClass: 'Patient',
  RaceClass: 'Patient',
  EthnicityClass: 'Patient',
  EncounterClass: 'Encounter',
  EncounterAdmitSource: 'Encounter',
  EncounterDischargeDisposition: 'Encounter',
  ConditionStatusConcepts: 'Condition',
  AllergyType: 'AllergyIntolerance',
  IntoleranceType: 'AllergyIntolerance',
  ImmunizationSource: 'Immunization',
  ImmunizationRoute: 'Immunization',
};

function administrativeAlignment(mapping: AdministrativeMapping, resourceType: ResourceType | undefined): Pick<Resolution, 'domain_resource_alignment' | 'alignment_note'> {
  const expected = ADMINISTRATIVE_RESOURCE[mapping.conceptMapId];
  if (!resourceType || !expected) return { domain_resource_alignment: 'not_checked' };
  if (resourceType === expected) return { domain_resource_alignment: 'aligned' };
  return {
    domain_resource_alignment: 'misaligned',
    alignment_note: `The IG ConceptMap ${mapping.conceptMapId} is for ${expected} resources, not ${resourceType}; the code goes to ${mapping.targetTable}.${mapping.targetField}.`,
  };
}

const RELATIONSHIP_WORDS: Record<string, string> = {
  equivalent: 'is equivalent to',
  'source-is-narrower-than-target': 'is narrower than',
  'source-is-broader-than-target': 'is broader than',
  'related-to': 'is related to',
  'not-related-to': 'is not related to',
};

/** Rule 5: an administrative code through the IG ConceptMaps; undefined when the code is in none of them. */
export function resolveAdministrative(
  ctx: ResolverContext,
  system: string,
  coding: CodingInput,
  resourceType: ResourceType | undefined,
  options: ResolveOptions,
): Resolution | undefined {
  const code = coding.code!;
  if (coding.concept_map_id && !administrativeConceptMapIds(system).includes(coding.concept_map_id)) {
    throw validationError(
      `concept_map_id '${coding.concept_map_id}' is not an IG ConceptMap of ${system}; its maps are ${administrativeConceptMapIds(system).join(', ')}.`,
      { concept_map_id: coding.concept_map_id, system },
    );
  }
  const [mapping] = administrativeMappings(system, code, coding.concept_map_id);
  if (!mapping) return undefined;
  const source = unknownSource(code, coding.display, null);
  const mapFields = { concept_map_id: mapping.conceptMapId, concept_map_url: mapping.conceptMapUrl };
  const proposal = mapping.published ? '' : ' This map is a proposal of the unmerged IG pull request 23, not published IG content.';
  if (mapping.targetConceptId === null) {
    const resolution: Resolution = {
      vocabulary_id: null,
      source_concept: { ...source, domain_id: mapping.targetDomainId },
      standard_concept: sentinelConcept(ctx.view.store),
      mapping_type: 'unmapped',
      relationship_id: mapping.conceptMapId,
      target_table: mapping.targetTable,
      target_field: mapping.targetField,
      ...administrativeAlignment(mapping, resourceType),
      quality_note: `The IG ConceptMap ${mapping.conceptMapId} maps ${code} to no OMOP concept (noMap); record concept_id 0 (spec E7 rule 4).`,
      ...mapFields,
      mapping_note: `${system}|${code} has no OMOP equivalent in ${mapping.conceptMapId}.${proposal}`,
    };
    return finishResolution(ctx, resolution, options, { administrative: mapping });
  }
  const target = ctx.view.store.concepts.byId(mapping.targetConceptId);
  const standard: ResolvedConcept = target
    ? briefConcept(target)
    : {
        concept_id: mapping.targetConceptId,
        concept_name: mapping.targetDisplay ?? String(mapping.targetConceptId),
        concept_code: String(mapping.targetConceptId),
        vocabulary_id: 'None',
        domain_id: mapping.targetDomainId,
        concept_class_id: 'Undefined',
        standard_concept: 'S',
      };
  if (target) ctx.view.assertVisible(target.vocabulary_id);
  const resolution: Resolution = {
    vocabulary_id: null,
    source_concept: { ...source, domain_id: mapping.targetDomainId },
    standard_concept: standard,
    mapping_type: 'mapped',
    relationship_id: mapping.conceptMapId,
    target_table: mapping.targetTable,
    target_field: mapping.targetField,
    ...administrativeAlignment(mapping, resourceType),
    quality_note: !target
      ? `Concept ${mapping.targetConceptId} is not in release ${ctx.view.label}; its name and domain are the IG ConceptMap's.`
      : target.standard_concept !== 'S' || target.invalid_reason
        ? `The IG ConceptMap's target ${target.concept_id} is ${target.invalid_reason ? `invalid (invalid_reason ${target.invalid_reason})` : 'not a standard concept'} in release ${ctx.view.label}; it is the IG's choice and is kept.`
        : null,
    ...mapFields,
    mapping_note: `${system}|${code} ${RELATIONSHIP_WORDS[mapping.relationship] ?? mapping.relationship} OMOP concept ${mapping.targetConceptId} (IG ConceptMap ${mapping.conceptMapId}).${proposal}`,
  };
  return finishResolution(ctx, resolution, options, { administrative: mapping, targetNotStandard: !!target && (target.standard_concept !== 'S' || target.invalid_reason !== null) });
}
