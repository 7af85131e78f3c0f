/**
 * The OMOP concept that a FHIR (system, code) pair names, for the operations that take codes as
 * data sent from elsewhere (ConceptMap/$translate and $closure, ValueSet search). The system URI
 * says how to read the code (../fhir/code-system-uris.ts): the OMOP concept system
 * (`https://fhir-terminology.ohdsi.org`) takes a concept_id, read as the CodeSystem operations read
 * it (./code-system-concept.ts: canonical decimal form only); a vocabulary's URI takes its
 * concept_code, tried in the spellings OMOP uses (../fhir-resolver/code-normalization.ts: NDC
 * hyphens, ICD dots, case), as FHIR data carries them. (The CodeSystem operations match a vocabulary
 * code exactly, as the HL7 conformance tests of $validate-code require.) THO's ICD-9-CM URI is
 * shared by diagnoses and procedures, so a code not found in ICD9CM is tried in ICD9Proc. The
 * administrative systems of the FHIR-to-OMOP IG are known systems whose codes are not OMOP concept
 * codes: no concept is found for them here.
 */
import type { ConceptRecord } from '../../store/records.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { ICD9_PROCEDURE_VOCABULARY, matchSystem, OMOP_CONCEPT_SYSTEM } from '../fhir/code-system-uris.js';
import { lookUpCode } from '../fhir-resolver/vocabulary-resolution.js';
import { conceptForCode } from './code-system-concept.js';

export type TerminologySystem =
  /** The OMOP concept system: the code is a concept_id. */
  | { kind: 'omop-concept-id'; canonical: string }
  /** A vocabulary's code system: the code is a concept_code of one of these vocabularies (first found wins). */
  | { kind: 'vocabulary'; canonical: string; vocabularyIds: readonly string[] }
  /** A known administrative code system (gender, encounter class, …): no OMOP concept codes. */
  | { kind: 'administrative'; canonical: string };

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

/** The concept the code names in the system, or undefined (the licence is the caller's to check). */
export function conceptOfCode(store: ReleaseStore, system: TerminologySystem, code: string): ConceptRecord | undefined {
  const trimmed = code.trim();
  switch (system.kind) {
    case 'omop-concept-id':
      return conceptForCode(store, { kind: 'omop', uri: system.canonical }, trimmed);
    case 'vocabulary':
      return lookUpCode(store, system.vocabularyIds, trimmed);
    case 'administrative':
      return undefined;
  }
}
