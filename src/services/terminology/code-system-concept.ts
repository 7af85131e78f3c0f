/**
 * The code systems of the FHIR terminology operations and how a (system, version, code) names an OMOP concept: a
 * concept_id in the OMOP system, a concept_code in a vocabulary's, matched `exact` or `normalised` as the caller
 * chooses.
 */
import type { ConceptRecord } from '../../store/records.js';
import type { ReleaseView } from '../release-view.js';
import { notFound } from '../errors.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { ICD9_PROCEDURE_VOCABULARY, OMOP_CONCEPT_SYSTEM, matchSystem } from '../fhir/code-system-uris.js';
import { lookUpCode } from '../fhir-resolver/vocabulary-resolution.js';

export type TerminologySystem =
  /** The OMOP concept system: the code is a concept_id. */
  | { kind: 'omop-concept-id'; canonical: string }
  /** A vocabulary's code system: the code is a concept_code of one of these vocabularies (first found wins; the first is the URI's own). */
  | { kind: 'vocabulary'; canonical: string; vocabularyIds: readonly string[] }
  /** A known administrative code system (gender, encounter class, …): no OMOP concept codes. */
  | { kind: 'administrative'; canonical: string };

/** A system whose codes name OMOP concepts: a code system of the CodeSystem operations. */
export type ConceptCodeSystem = Exclude<TerminologySystem, { kind: 'administrative' }>;

/** How a code is matched (see the header). */
export type CodeMatch = 'exact' | 'normalised';

/** The code-system name of the OMOP system (`name` of $lookup, as the HL7 OMOP tests expect). */
export const OMOP_CODE_SYSTEM_NAME = 'OMOP Concepts';

/** What a code-system URI is to the terminology operations; undefined when the server does not know it. */
export function terminologySystem(system: string): TerminologySystem | undefined {
  const match = matchSystem(system);
  if (!match) return undefined;
  switch (match.kind) {
    case 'omop-concept-id':
      return { kind: 'omop-concept-id', canonical: OMOP_CONCEPT_SYSTEM };
    case 'administrative':
      return { kind: 'administrative', canonical: match.canonical };
    case 'vocabulary':
      return {
        kind: 'vocabulary',
        canonical: match.canonical,
        vocabularyIds: match.vocabularyId === 'ICD9CM' ? [match.vocabularyId, ICD9_PROCEDURE_VOCABULARY] : [match.vocabularyId],
      };
  }
}

/** The code system a URI names for the CodeSystem operations, or undefined (unknown, or administrative). */
export function conceptCodeSystem(system: string): ConceptCodeSystem | undefined {
  const known = terminologySystem(system);
  return known?.kind === 'administrative' ? undefined : known;
}

/** 403 when the caller may not see a vocabulary of the system. */
export function assertSystemVisible(view: ReleaseView, system: TerminologySystem): void {
  if (system.kind === 'vocabulary') for (const vocabularyId of system.vocabularyIds) view.assertVisible(vocabularyId);
}

/** A concept_id in canonical decimal form within the 32-bit range of OMOP concept ids. */
const CONCEPT_ID_CODE = /^(?:0|[1-9]\d{0,9})$/;
const MAX_CONCEPT_ID = 2 ** 31 - 1;

function conceptOfId(store: ReleaseStore, code: string): ConceptRecord | undefined {
  if (!CONCEPT_ID_CODE.test(code) || Number(code) > MAX_CONCEPT_ID) return undefined;
  return store.concepts.byId(Number(code));
}

function conceptOfExactCode(store: ReleaseStore, vocabularyIds: readonly string[], code: string): ConceptRecord | undefined {
  for (const vocabularyId of vocabularyIds) {
    const concept = store.concepts.byCode(vocabularyId, code);
    // byCode falls back to a case-insensitive match; a FHIR code matches exactly.
    if (concept && concept.concept_code === code) return concept;
  }
  return undefined;
}

/** The concept a code names in the system, or undefined (the licence is the caller's to check). */
export function conceptOfCode(store: ReleaseStore, system: TerminologySystem, code: string, match: CodeMatch): ConceptRecord | undefined {
  const read = match === 'normalised' ? code.trim() : code;
  switch (system.kind) {
    case 'omop-concept-id':
      return conceptOfId(store, read);
    case 'vocabulary':
      return match === 'normalised' ? lookUpCode(store, system.vocabularyIds, read) : conceptOfExactCode(store, system.vocabularyIds, read);
    case 'administrative':
      return undefined;
  }
}

/** The code of a concept in a code system. */
export function codeOfConcept(system: ConceptCodeSystem, concept: ConceptRecord): string {
  return system.kind === 'omop-concept-id' ? String(concept.concept_id) : concept.concept_code;
}

/** Whether a requested version names the code system's version in this release. */
export function isKnownVersion(store: ReleaseStore, system: ConceptCodeSystem, requested: string, releaseVersion: string): boolean {
  if (requested === releaseVersion) return true;
  return system.kind === 'vocabulary' && store.metadata.vocabulary(system.vocabularyIds[0]!)?.vocabulary_version === requested;
}

/** The name of a code system ($lookup `name`). */
export function codeSystemName(store: ReleaseStore, system: ConceptCodeSystem): string {
  if (system.kind === 'omop-concept-id') return OMOP_CODE_SYSTEM_NAME;
  const vocabularyId = system.vocabularyIds[0]!;
  return store.metadata.vocabulary(vocabularyId)?.vocabulary_name ?? vocabularyId;
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
  view: ReleaseView,
  system: string,
  version: string | undefined,
  releaseVersion: string,
): ConceptCodeSystem {
  const codeSystem = conceptCodeSystem(system);
  if (!codeSystem) throw notFound(unknownSystemMessage(system), 'not_found', { system });
  assertSystemVisible(view, codeSystem);
  if (version !== undefined && !isKnownVersion(view.store, codeSystem, version, releaseVersion)) {
    throw notFound(unknownVersionMessage(codeSystem.canonical, version, releaseVersion), 'not_found', { system, version });
  }
  return codeSystem;
}

/** The concept an exact code names, for a read that needs it: unknown is a 404 (omop-lookup-code2's wording), licensed a 403. */
export function requireConcept(
  view: ReleaseView,
  codeSystem: ConceptCodeSystem,
  code: string,
  releaseVersion: string,
): ConceptRecord {
  const concept = conceptOfCode(view.store, codeSystem, code, 'exact');
  if (!concept) throw notFound(`Unable to find code '${code}' in ${codeSystem.canonical} version ${releaseVersion}`, 'concept_not_found', { code });
  view.assertVisible(concept.vocabulary_id);
  return concept;
}
