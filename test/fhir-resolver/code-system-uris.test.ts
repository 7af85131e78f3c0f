/**
 * FHIR code-system URIs → OMOP vocabularies (E7: system → vocabulary; an unknown system is 400
 * unknown_system with the nearest known URI as a suggestion). Expected vocabularies are those of
 * the URI table in fhir-and-omop-notes.md §4 (THO NamingSystems and tx.fhir.org's OMOP provider),
 * written out here; the administrative systems are those of the IG ConceptMaps.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ADMINISTRATIVE_SYSTEMS } from '../../src/services/fhir-resolver/administrative-concept-maps.js';
import {
  CODE_SYSTEMS,
  ICD9_PROCEDURE_VOCABULARY,
  matchSystem,
  nearestKnownSystem,
  OMOP_CONCEPT_SYSTEM,
  systemForVocabulary,
} from '../../src/services/fhir/code-system-uris.js';

const vocabularyOf = (system: string) => {
  const match = matchSystem(system);
  return match?.kind === 'vocabulary' ? match.vocabularyId : match?.kind;
};

/** THO preferred URIs of fhir-and-omop-notes.md §4. */
const THO_URIS: Record<string, string> = {
  'http://snomed.info/sct': 'SNOMED',
  'http://loinc.org': 'LOINC',
  'http://www.nlm.nih.gov/research/umls/rxnorm': 'RxNorm',
  'http://hl7.org/fhir/sid/icd-10-cm': 'ICD10CM',
  'http://hl7.org/fhir/sid/icd-10': 'ICD10',
  'http://hl7.org/fhir/sid/icd-9-cm': 'ICD9CM',
  'http://www.cms.gov/Medicare/Coding/ICD10': 'ICD10PCS',
  'http://www.ama-assn.org/go/cpt': 'CPT4',
  'http://www.cms.gov/Medicare/Coding/HCPCSReleaseCodeSets': 'HCPCS',
  'http://hl7.org/fhir/sid/ndc': 'NDC',
  'http://hl7.org/fhir/sid/cvx': 'CVX',
  'http://www.whocc.no/atc': 'ATC',
  'http://unitsofmeasure.org': 'UCUM',
  'http://nucc.org/provider-taxonomy': 'NUCC',
};

/** The alternative URIs and OIDs of §4, and tx.fhir.org's non-THO URIs (FHIRsmith cs-omop.js getUri). */
const ALIASES: Record<string, string> = {
  'http://terminology.hl7.org/CodeSystem/icd10CM': 'ICD10CM',
  'http://terminology.hl7.org/CodeSystem/icd10': 'ICD10',
  'http://terminology.hl7.org/CodeSystem/icd10PCS': 'ICD10PCS',
  'http://terminology.hl7.org/CodeSystem/CVX': 'CVX',
  'http://hl7.org/fhir/sid/icd-9-proc': 'ICD9Proc',
  'http://terminology.hl7.org/CodeSystem/HCPCS-all-codes': 'HCPCS',
  'urn:oid:2.16.840.1.113883.6.96': 'SNOMED',
  'urn:oid:2.16.840.1.113883.6.1': 'LOINC',
  'urn:oid:2.16.840.1.113883.6.88': 'RxNorm',
  'urn:oid:2.16.840.1.113883.6.90': 'ICD10CM',
  'urn:oid:2.16.840.1.113883.6.3': 'ICD10',
  'urn:oid:2.16.840.1.113883.6.103': 'ICD9CM',
  'urn:oid:2.16.840.1.113883.6.104': 'ICD9Proc',
  'urn:oid:2.16.840.1.113883.6.4': 'ICD10PCS',
  'urn:oid:2.16.840.1.113883.6.12': 'CPT4',
  'urn:oid:2.16.840.1.113883.6.285': 'HCPCS',
  'urn:oid:2.16.840.1.113883.6.69': 'NDC',
  'urn:oid:2.16.840.1.113883.12.292': 'CVX',
  'urn:oid:2.16.840.1.113883.6.73': 'ATC',
  'urn:oid:2.16.840.1.113883.6.8': 'UCUM',
  'urn:oid:2.16.840.1.113883.6.101': 'NUCC',
};

describe('matchSystem: vocabularies', () => {
  it.each(Object.entries(THO_URIS))('maps the THO URI %s to %s', (uri, vocabularyId) => {
    expect(matchSystem(uri)).toEqual({ kind: 'vocabulary', vocabularyId, canonical: uri });
  });

  it.each(Object.entries(ALIASES))('maps the alias %s to %s', (uri, vocabularyId) => {
    expect(vocabularyOf(uri)).toBe(vocabularyId);
  });

  it('answers ICD9CM for the URI ICD-9-CM procedures share, and names ICD9Proc for the retry by code shape', () => {
    expect(vocabularyOf('http://hl7.org/fhir/sid/icd-9-cm')).toBe('ICD9CM');
    expect(ICD9_PROCEDURE_VOCABULARY).toBe('ICD9Proc');
    expect(systemForVocabulary('ICD9Proc')).toBe('http://hl7.org/fhir/sid/icd-9-cm');
  });

  it('knows the restricted vocabularies, so the resolver can answer 403 rather than unknown_system', () => {
    expect(vocabularyOf('http://www.ama-assn.org/go/cpt')).toBe('CPT4');
    expect(vocabularyOf('http://terminology.hl7.org/CodeSystem/mdr')).toBe('MedDRA');
  });

  it('knows further THO systems with an OMOP vocabulary', () => {
    expect(vocabularyOf('https://www.nlm.nih.gov/mesh')).toBe('MeSH');
    expect(vocabularyOf('http://terminology.hl7.org/CodeSystem/MSH')).toBe('MeSH');
    expect(vocabularyOf('http://terminology.hl7.org/CodeSystem/icd-o-3')).toBe('ICDO3');
    expect(vocabularyOf('http://www.ada.org/cdt')).toBe('CDT');
    expect(vocabularyOf('http://hl7.org/fhir/ndfrt')).toBe('NDFRT');
  });

  it('maps each entry of CODE_SYSTEMS, its OID and its aliases to its vocabulary (the shared ICD-9 URI excepted)', () => {
    for (const entry of CODE_SYSTEMS) {
      const uris = [...(entry.uri === 'http://hl7.org/fhir/sid/icd-9-cm' ? [] : [entry.uri]), ...entry.aliases, ...(entry.oid ? [`urn:oid:${entry.oid}`, entry.oid] : [])];
      for (const uri of uris) expect(vocabularyOf(uri), uri).toBe(entry.vocabularyId);
    }
  });

  it('gives each vocabulary one entry and each URI one vocabulary (the shared ICD-9 URI excepted)', () => {
    const vocabularies = CODE_SYSTEMS.map((e) => e.vocabularyId);
    expect(new Set(vocabularies).size).toBe(vocabularies.length);
    const owners = new Map<string, string[]>();
    for (const entry of CODE_SYSTEMS) {
      for (const uri of [entry.uri, ...entry.aliases, ...(entry.oid ? [`urn:oid:${entry.oid}`] : [])]) {
        owners.set(uri.toLowerCase(), [...(owners.get(uri.toLowerCase()) ?? []), entry.vocabularyId]);
      }
    }
    const shared = [...owners].filter(([, ids]) => ids.length > 1);
    expect(shared).toEqual([['http://hl7.org/fhir/sid/icd-9-cm', ['ICD9CM', 'ICD9Proc']]]);
  });
});

describe('matchSystem: the OMOP concept system and administrative systems', () => {
  it('recognises the OMOP concept system (the code is a concept_id)', () => {
    expect(matchSystem(OMOP_CONCEPT_SYSTEM)).toEqual({ kind: 'omop-concept-id' });
    expect(matchSystem('http://fhir-terminology.ohdsi.org/')).toEqual({ kind: 'omop-concept-id' });
  });

  it.each(ADMINISTRATIVE_SYSTEMS)('recognises the administrative system %s', (uri) => {
    expect(matchSystem(uri)).toEqual({ kind: 'administrative', canonical: uri });
  });

  it('reads v3-Race and v3-Ethnicity (the same CDC codes) as the CDC Race & Ethnicity system', () => {
    for (const alias of ['http://terminology.hl7.org/CodeSystem/v3-Race', 'http://terminology.hl7.org/CodeSystem/v3-Ethnicity']) {
      expect(matchSystem(alias)).toEqual({ kind: 'administrative', canonical: 'urn:oid:2.16.840.1.113883.6.238' });
    }
  });
});

describe('matchSystem: tolerated spellings', () => {
  const snomed = { kind: 'vocabulary', vocabularyId: 'SNOMED', canonical: 'http://snomed.info/sct' };

  it('ignores surrounding spaces, a trailing slash, the http/https difference and a |version suffix', () => {
    expect(matchSystem('  http://snomed.info/sct  ')).toEqual(snomed);
    expect(matchSystem('http://snomed.info/sct/')).toEqual(snomed);
    expect(matchSystem('https://snomed.info/sct')).toEqual(snomed);
    expect(matchSystem('http://snomed.info/sct|http://snomed.info/sct/900000000000207008/version/20250101')).toEqual(snomed);
    expect(vocabularyOf('http://loinc.org|2.77')).toBe('LOINC');
  });

  it('reads SNOMED CT edition and version URIs as SNOMED', () => {
    expect(matchSystem('http://snomed.info/sct/900000000000207008')).toEqual(snomed);
    expect(matchSystem('http://snomed.info/sct/731000124108/version/20250301')).toEqual(snomed);
  });

  it('ignores case in the scheme and host, not in the path', () => {
    expect(vocabularyOf('HTTP://LOINC.ORG')).toBe('LOINC');
    expect(vocabularyOf('http://HL7.org/fhir/sid/icd-10-cm')).toBe('ICD10CM');
    expect(matchSystem('http://hl7.org/fhir/sid/ICD-10-CM')).toBeUndefined();
  });

  it('reads OIDs as urn:oid or bare', () => {
    expect(matchSystem('urn:oid:2.16.840.1.113883.6.96')).toEqual(snomed);
    expect(matchSystem('URN:OID:2.16.840.1.113883.6.96')).toEqual(snomed);
    expect(matchSystem('2.16.840.1.113883.6.96')).toEqual(snomed);
  });

  it('does not take another scheme, a value-set URI or garbage for a known system', () => {
    for (const unknown of ['ftp://snomed.info/sct', 'http://snomed.info/sct?fhir_vs', 'snomed.info/sct', 'http://snomed.info/sc', 'THIS_VOCAB_DOES_NOT_EXIST', '', '   ', '|']) {
      expect(matchSystem(unknown), unknown).toBeUndefined();
    }
  });

  it('keeps its answer for any known URI sent with spaces, a trailing slash or a |version suffix, and never throws', () => {
    const known = CODE_SYSTEMS.map((e) => e.uri).filter((uri) => uri.startsWith('http'));
    fc.assert(
      fc.property(fc.constantFrom(...known), fc.boolean(), fc.boolean(), fc.stringMatching(/^[0-9a-z.]{0,8}$/), (uri, spaces, slash, version) => {
        const sent = `${spaces ? ' ' : ''}${uri}${slash ? '/' : ''}${version ? `|${version}` : ''}${spaces ? ' ' : ''}`;
        expect(matchSystem(sent)).toEqual(matchSystem(uri));
      }),
    );
    fc.assert(
      fc.property(fc.string(), (s) => {
        matchSystem(s);
        nearestKnownSystem(s);
      }),
    );
  });
});

describe('nearestKnownSystem (unknown_system suggestion)', () => {
  it('suggests the URI a typo was meant to be (client contract §5: http://snomed.info/sc)', () => {
    expect(nearestKnownSystem('http://snomed.info/sc')).toBe('http://snomed.info/sct');
    expect(nearestKnownSystem('http://loinc.og')).toBe('http://loinc.org');
    expect(nearestKnownSystem('http://hl7.org/fhir/sid/icd10-cm')).toBe('http://hl7.org/fhir/sid/icd-10-cm');
    expect(nearestKnownSystem('htp://www.nlm.nih.gov/research/umls/rxnorm')).toBe('http://www.nlm.nih.gov/research/umls/rxnorm');
    expect(nearestKnownSystem('https://fhir-terminology.ohdsi.or')).toBe(OMOP_CONCEPT_SYSTEM);
    expect(nearestKnownSystem('http://hl7.org/fhir/administrative-gendre')).toBe('http://hl7.org/fhir/administrative-gender');
  });

  it('suggests the canonical URI when the typo is of an alias', () => {
    expect(nearestKnownSystem('http://terminology.hl7.org/CodeSystem/CVXX')).toBe('http://hl7.org/fhir/sid/cvx');
  });

  it('suggests nothing when no known URI is close', () => {
    for (const far of ['THIS_VOCAB_DOES_NOT_EXIST', 'http://example.org/my-local-codes', 'urn:uuid:1234', '']) {
      expect(nearestKnownSystem(far), far).toBeUndefined();
    }
  });
});

describe('systemForVocabulary', () => {
  it('gives the canonical URI of a vocabulary, and undefined for one without a FHIR URI', () => {
    for (const [uri, vocabularyId] of Object.entries(THO_URIS)) expect(systemForVocabulary(vocabularyId)).toBe(uri);
    expect(systemForVocabulary('RxNorm Extension')).toBeUndefined();
    expect(systemForVocabulary('GPI')).toBeUndefined();
  });
});

describe('the hosted OMOPHub service\'s system URIs (client-compatibility.md §2.1) are understood', () => {
  const OMOPHUB_URIS: Record<string, string> = {
    'http://hl7.org/fhir/sid/icd-10-pcs': 'ICD10PCS',
    'http://hl7.org/fhir/sid/icd-10-cn': 'ICD10CN',
    'http://hl7.org/fhir/sid/icd-10-gm': 'ICD10GM',
    'http://hl7.org/fhir/sid/icd-9': 'ICD9Proc',
    'http://hl7.org/fhir/sid/icd-9-cn': 'ICD9ProcCN',
    'http://hl7.org/fhir/sid/icd-o-3': 'ICDO3',
    'http://www.nlm.nih.gov/research/umls/hcpcs': 'HCPCS',
  };
  it.each(Object.entries(OMOPHUB_URIS))('%s → %s', (uri, vocabularyId) => {
    expect(matchSystem(uri)).toMatchObject({ kind: 'vocabulary', vocabularyId });
  });
});
