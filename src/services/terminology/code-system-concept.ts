/**
 * The code systems the FHIR CodeSystem operations answer for, and how a (system, version, code)
 * names an OMOP concept. Two kinds of system: the unified OMOP system
 * `https://fhir-terminology.ohdsi.org`, whose codes are concept_ids, and each vocabulary at its
 * canonical (THO) URI, whose codes are concept_codes (../fhir/code-system-uris.ts matches the URI).
 * The administrative systems of the IG maps are not code systems of this server (their codes are
 * translated, see ConceptMap/$translate) and count as unknown here.
 *
 * Every code system has one version per release: the release's vocabulary version date, YYYYMMDD
 * (the caller passes it in; the FHIR edge computes it). A vocabulary's own VOCABULARY.vocabulary_version
 * (e.g. "SNOMEDCT_US 2025-03-01") is accepted as a synonym of it for that vocabulary's system.
 *
 * Codes are matched exactly, as FHIR codes are case-sensitive: a concept_id in its canonical decimal
 * form (so "04097430" and "4097430.0" are unknown, as the HL7 OMOP conformance tests expect), a
 * concept_code as written in CONCEPT.
 */
import type { ConceptRecord } from '../../store/records.js';
import type { AccessPolicy } from '../access-policy.js';
import { notFound } from '../errors.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { ICD9_PROCEDURE_VOCABULARY, OMOP_CONCEPT_SYSTEM, matchSystem } from '../fhir/code-system-uris.js';

export type TerminologyCodeSystem =
  | { kind: 'omop'; uri: string }
  | { kind: 'vocabulary'; uri: string; vocabularyId: string };

/** The code-system name of the OMOP system (`name` of $lookup, as the HL7 OMOP tests expect). */
export const OMOP_CODE_SYSTEM_NAME = 'OMOP Concepts';

/** The code system a URI names, or undefined when this server has no such code system. */
export function terminologyCodeSystem(system: string): TerminologyCodeSystem | undefined {
  const match = matchSystem(system);
  if (match?.kind === 'omop-concept-id') return { kind: 'omop', uri: OMOP_CONCEPT_SYSTEM };
  if (match?.kind === 'vocabulary') return { kind: 'vocabulary', uri: match.canonical, vocabularyId: match.vocabularyId };
  return undefined;
}

/** A concept_id in canonical decimal form within the 32-bit range of OMOP concept ids. */
const CONCEPT_ID_CODE = /^(?:0|[1-9]\d{0,9})$/;
const MAX_CONCEPT_ID = 2 ** 31 - 1;

function conceptByCode(store: ReleaseStore, vocabularyId: string, code: string): ConceptRecord | undefined {
  const concept = store.concepts.byCode(vocabularyId, code);
  // byCode falls back to a case-insensitive match; a FHIR code matches exactly.
  return concept && concept.concept_code === code ? concept : undefined;
}

/** The concept a code names in a code system, or undefined. */
export function conceptForCode(store: ReleaseStore, codeSystem: TerminologyCodeSystem, code: string): ConceptRecord | undefined {
  if (codeSystem.kind === 'omop') {
    if (!CONCEPT_ID_CODE.test(code) || Number(code) > MAX_CONCEPT_ID) return undefined;
    return store.concepts.byId(Number(code));
  }
  const concept = conceptByCode(store, codeSystem.vocabularyId, code);
  if (concept || codeSystem.vocabularyId !== 'ICD9CM') return concept;
  // ICD-9-CM diagnoses and procedures share one URI (see code-system-uris.ts).
  return conceptByCode(store, ICD9_PROCEDURE_VOCABULARY, code);
}

/** The code of a concept in a code system. */
export function codeOfConcept(codeSystem: TerminologyCodeSystem, concept: ConceptRecord): string {
  return codeSystem.kind === 'omop' ? String(concept.concept_id) : concept.concept_code;
}

/** Whether a requested version names the code system's version in this release. */
export function isKnownVersion(store: ReleaseStore, codeSystem: TerminologyCodeSystem, requested: string, releaseVersion: string): boolean {
  if (requested === releaseVersion) return true;
  return codeSystem.kind === 'vocabulary' && store.metadata.vocabulary(codeSystem.vocabularyId)?.vocabulary_version === requested;
}

/** The name of a code system ($lookup `name`). */
export function codeSystemName(store: ReleaseStore, codeSystem: TerminologyCodeSystem): string {
  if (codeSystem.kind === 'omop') return OMOP_CODE_SYSTEM_NAME;
  return store.metadata.vocabulary(codeSystem.vocabularyId)?.vocabulary_name ?? codeSystem.vocabularyId;
}

/** What a validation adds to a missing definition's message (tx.fhir.org's wording). */
const CANNOT_VALIDATE = ', so the code cannot be validated';

/** Message of an unknown code system; `validating` adds tx.fhir.org's consequence for $validate-code. */
export function unknownSystemMessage(system: string, validating = false): string {
  return `A definition for CodeSystem '${system}' could not be found${validating ? CANNOT_VALIDATE : ''}`;
}

/** Message of an unknown version of a known code system (omop-validate-bad-version-* fixtures when `validating`). */
export function unknownVersionMessage(system: string, version: string, releaseVersion: string, validating = false): string {
  return `A definition for CodeSystem '${system}' version '${version}' could not be found${validating ? CANNOT_VALIDATE : ''}. Valid versions: ${releaseVersion}`;
}

/**
 * The code system of a read that needs one ($lookup, $subsumes): an unknown system or version is a
 * 404, a vocabulary the caller may not see a 403.
 */
export function requireCodeSystem(
  store: ReleaseStore,
  policy: AccessPolicy,
  system: string,
  version: string | undefined,
  releaseVersion: string,
): TerminologyCodeSystem {
  const codeSystem = terminologyCodeSystem(system);
  if (!codeSystem) throw notFound(unknownSystemMessage(system), 'not_found', { system });
  if (codeSystem.kind === 'vocabulary') policy.assertVisible(codeSystem.vocabularyId);
  if (version !== undefined && !isKnownVersion(store, codeSystem, version, releaseVersion)) {
    throw notFound(unknownVersionMessage(codeSystem.uri, version, releaseVersion), 'not_found', { system, version });
  }
  return codeSystem;
}

/** The concept a code names, for a read that needs it: unknown is a 404 (omop-lookup-code2's wording), licensed a 403. */
export function requireConcept(
  store: ReleaseStore,
  policy: AccessPolicy,
  codeSystem: TerminologyCodeSystem,
  code: string,
  releaseVersion: string,
): ConceptRecord {
  const concept = conceptForCode(store, codeSystem, code);
  if (!concept) throw notFound(`Unable to find code '${code}' in ${codeSystem.uri} version ${releaseVersion}`, 'concept_not_found', { code });
  policy.assertVisible(concept.vocabulary_id);
  return concept;
}
