/**
 * ConceptMap/$translate as domain logic: which codes a code translates to, or which translate to it, through the
 * maps of ./translation-maps.ts, with bounded reads of hubs and the licence rules.
 */
import type { ReleaseView } from '../release-view.js';
import type { ConceptRecord } from '../../store/records.js';
import type { MappingFilter } from '../../store/mapping-store.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { ADMINISTRATIVE_MAPPINGS, administrativeMappings, type ConceptMapRelationship } from '../fhir-resolver/administrative-concept-maps.js';
import { OMOP_CONCEPT_SYSTEM, systemForVocabulary } from '../fhir/code-system-uris.js';
import { MAPS_TO, MAPS_TO_VALUE } from '../fhir-resolver/vocabulary-resolution.js';
import { assertSystemVisible, conceptOfCode, type TerminologySystem } from './code-system-concept.js';
import { administrativeMapsOf, fromVocabularyMap, OMOP_CONCEPT_MAP_BASE, toVocabularyMap, type TranslationMap } from './translation-maps.js';

const MAPPED_FROM = 'Mapped from';
/** Most matches listed for one coding (a standard drug can be `Mapped from` thousands of NDC codes). */
const MAX_MATCHES = 1000;
/** Most relationship rows of one concept read per relationship id. */
const SCAN_BUDGET = 20_000;
/** The message of a translation without matches (the HL7 OMOP test `translate-loinc-implicit-bad`). */
const NO_TRANSLATIONS = 'No translations found';

export interface TranslationContext {
  view: ReleaseView;
  /** Version of the release's code systems: the vocabulary release date, YYYYMMDD. */
  omopVersion: string;
}

export interface TranslationCoding {
  system: TerminologySystem;
  code: string;
}

export interface TranslationRequest {
  /** Forward: the codings to translate. Reverse: the target codings whose sources are wanted. */
  codings: TranslationCoding[];
  reverse: boolean;
  /** The system the answers are wanted in; undefined: the OMOP concept system (forward) or any (reverse). */
  answerSystem?: TerminologySystem;
  /** A map the client named by URL (./translation-maps.ts). */
  map?: TranslationMap;
}

export interface TranslatedCoding {
  system: string;
  code: string;
  display?: string;
}

export interface TranslationMatch {
  relationship: ConceptMapRelationship;
  /** Absent for an IG noMap row. */
  concept?: TranslatedCoding;
  /** `Maps to value` targets of the source: the value_as_concept_id of the record `concept` starts. */
  values: TranslatedCoding[];
  /** The map the match comes from. */
  originMap: string;
}

export interface TranslationResult {
  /** True when at least one match is not `not-related-to`. */
  result: boolean;
  message?: string;
  /** `system|version` of each named code system. */
  usedSystems: string[];
  /** `url|version` of each map that gave a match. */
  usedConceptMaps: string[];
  matches: TranslationMatch[];
}

/** The matches of a translation (each answer once per map), the maps that gave them, and what was noticed on the way. */
class Collector {
  readonly matches: TranslationMatch[] = [];
  readonly usedConceptMaps = new Set<string>();
  readonly notes: string[] = [];
  private readonly seen = new Set<string>();

  add(match: TranslationMatch, usedMap: string): void {
    const key = `${match.concept?.system}|${match.concept?.code}|${match.originMap}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.matches.push(match);
    this.usedConceptMaps.add(usedMap);
  }

  note(text: string): void {
    if (!this.notes.includes(text)) this.notes.push(text);
  }
}

function omopCoding(concept: ConceptRecord): TranslatedCoding {
  return { system: OMOP_CONCEPT_SYSTEM, code: String(concept.concept_id), display: concept.concept_name };
}

/** The concept as a code of its own vocabulary's code system (the OMOP concept system when that has no URI). */
function vocabularyCoding(concept: ConceptRecord): TranslatedCoding {
  const system = systemForVocabulary(concept.vocabulary_id);
  return system ? { system, code: concept.concept_code, display: concept.concept_name } : omopCoding(concept);
}

function usedMapOf(ctx: TranslationContext, map: TranslationMap): string {
  return map.kind === 'administrative' ? map.url : `${map.url}|${ctx.omopVersion}`;
}

/**
 * The `originMap` of a match. tx.fhir.org names its to-{n} map `…/ConceptMap/{n}` with an empty
 * version there, and the HL7 OMOP test `translate-loinc-implicit` expects exactly that; the
 * response's used-conceptmap carries the full `to-{n}|version`.
 */
function originMapOf(ctx: TranslationContext, map: TranslationMap): string {
  if (map.kind === 'to-vocabulary') return `${OMOP_CONCEPT_MAP_BASE}${map.vocabulary.vocabulary_concept_id}|`;
  return usedMapOf(ctx, map);
}

/** `system|version`: every code system of the release has the release's version (as the CodeSystem operations say); the IG's administrative systems are not versioned here. */
function usedSystemOf(ctx: TranslationContext, system: TerminologySystem): string {
  return system.kind === 'administrative' ? system.canonical : `${system.canonical}|${ctx.omopVersion}`;
}

function filterOf(ctx: TranslationContext, targetVocabularyIds?: readonly string[]): MappingFilter {
  return { targetVocabularyIds, hiddenVocabularyIds: ctx.view.hiddenVocabularyIds(), includeInvalid: false };
}

/** Valid rows of one relationship id from the concept, targets filtered, bounded (notes when more may exist). */
function related(ctx: TranslationContext, out: Collector, concept: ConceptRecord, relationshipId: string, vocabularyIds?: readonly string[]): ConceptRecord[] {
  const rows = ctx.view.store.mappings.scan(concept.concept_id, relationshipId, filterOf(ctx, vocabularyIds), MAX_MATCHES, SCAN_BUDGET);
  if (!rows.complete) out.note(`Concept ${concept.concept_id} has more '${relationshipId}' rows than one translation lists (${MAX_MATCHES} at most); the first ones in concept_id order are shown.`);
  return rows.items.map((r) => r.target);
}

function isValidStandard(concept: ConceptRecord): boolean {
  return concept.standard_concept === 'S' && concept.invalid_reason === null;
}

/** from-{n}: the concept's standard targets, with its `Maps to value` targets as values. */
function standardise(ctx: TranslationContext, out: Collector, concept: ConceptRecord, map: TranslationMap): void {
  const targets = related(ctx, out, concept, MAPS_TO);
  if (targets.length === 0 && isValidStandard(concept)) targets.push(concept);
  const values = related(ctx, out, concept, MAPS_TO_VALUE).map(omopCoding);
  for (const target of targets) {
    out.add({ relationship: 'equivalent', concept: omopCoding(target), values, originMap: originMapOf(ctx, map) }, usedMapOf(ctx, map));
  }
}

/** to-{n}: the concept's code in the vocabulary, or its Maps to / Mapped from partners there. */
function intoVocabulary(ctx: TranslationContext, out: Collector, concept: ConceptRecord, map: TranslationMap & { kind: 'to-vocabulary' }, vocabularyIds: readonly string[]): void {
  const partners = vocabularyIds.includes(concept.vocabulary_id)
    ? [concept]
    : [...related(ctx, out, concept, MAPS_TO, vocabularyIds), ...related(ctx, out, concept, MAPPED_FROM, vocabularyIds)];
  for (const partner of partners.slice(0, MAX_MATCHES)) {
    out.add({ relationship: 'equivalent', concept: { system: map.system, code: partner.concept_code, display: partner.concept_name }, values: [], originMap: originMapOf(ctx, map) }, usedMapOf(ctx, map));
  }
}

/** IG rows of one administrative code, every map of the system (or the one named). */
function administrativeForward(ctx: TranslationContext, out: Collector, system: string, code: string, maps: readonly TranslationMap[]): void {
  for (const map of maps) {
    if (map.kind !== 'administrative') continue;
    for (const row of administrativeMappings(system, code, map.conceptMapId)) {
      if (row.targetConceptId === null) out.note(`${map.url} says ${system}#${row.code} has no OMOP concept (noMap).`);
      const target = row.targetConceptId === null ? undefined : ctx.view.store.concepts.byId(row.targetConceptId);
      const concept =
        row.targetConceptId === null
          ? undefined
          : { system: OMOP_CONCEPT_SYSTEM, code: String(row.targetConceptId), display: target?.concept_name ?? row.targetDisplay ?? undefined };
      out.add({ relationship: row.relationship, ...(concept ? { concept } : {}), values: [], originMap: map.url }, map.url);
    }
  }
}

/** The message of a code the release does not have (the wording of the HL7 OMOP test omop-lookup-code2). */
function unknownCode(ctx: TranslationContext, coding: TranslationCoding): string {
  return `Unable to find code '${coding.code}' in ${coding.system.canonical} version ${ctx.omopVersion}`;
}

function translateForward(ctx: TranslationContext, out: Collector, coding: TranslationCoding, request: TranslationRequest): void {
  const { system, code } = coding;
  const answer = request.answerSystem;
  if (system.kind === 'administrative') {
    if (request.map && request.map.kind !== 'administrative') return out.note(`The map ${request.map.url} does not translate codes of ${system.canonical}.`);
    if (request.map && request.map.system !== system.canonical) return out.note(`The map ${request.map.url} translates codes of ${request.map.system}, not of ${system.canonical}.`);
    if (!request.map && answer && answer.kind !== 'omop-concept-id') return out.note(`The FHIR-to-OMOP IG maps codes of ${system.canonical} to ${OMOP_CONCEPT_SYSTEM} only.`);
    administrativeForward(ctx, out, system.canonical, code, request.map ? [request.map] : administrativeMapsOf(system.canonical));
    return;
  }
  if (request.map?.kind === 'administrative') return out.note(`The map ${request.map.url} translates codes of ${request.map.system}, not of ${system.canonical}.`);
  const concept = conceptOfCode(ctx.view.store, system, code, 'normalised');
  if (!concept) return out.note(unknownCode(ctx, coding));
  ctx.view.assertVisible(concept.vocabulary_id);
  if (request.map?.kind === 'to-vocabulary') return intoVocabulary(ctx, out, concept, request.map, [request.map.vocabulary.vocabulary_id]);
  if (request.map?.kind === 'from-vocabulary' || !answer || answer.kind === 'omop-concept-id') {
    const vocabulary = ctx.view.store.metadata.vocabulary(concept.vocabulary_id);
    const map = request.map ?? (vocabulary ? fromVocabularyMap(vocabulary) : undefined);
    if (!map) return out.note(`The release has no VOCABULARY row for ${concept.vocabulary_id}.`);
    return standardise(ctx, out, concept, map);
  }
  if (answer.kind === 'administrative') return out.note(`No map translates ${system.canonical} codes into ${answer.canonical}; the IG maps go from it (use the reverse direction).`);
  assertSystemVisible(ctx.view, answer);
  const vocabulary = ctx.view.store.metadata.vocabulary(answer.vocabularyIds[0]!);
  const map = vocabulary ? toVocabularyMap(vocabulary) : undefined;
  if (map?.kind !== 'to-vocabulary') return out.note(`This release has no ${answer.vocabularyIds[0]} vocabulary to translate into.`);
  intoVocabulary(ctx, out, concept, map, answer.vocabularyIds);
}

function translateReverse(ctx: TranslationContext, out: Collector, coding: TranslationCoding, request: TranslationRequest): void {
  const { system } = coding;
  const answer = request.answerSystem;
  if (system.kind === 'administrative') return out.note(`Codes of ${system.canonical} are sources of the IG maps, not targets; name an OMOP concept.`);
  const concept = conceptOfCode(ctx.view.store, system, coding.code, 'normalised');
  if (!concept) return out.note(unknownCode(ctx, coding));
  ctx.view.assertVisible(concept.vocabulary_id);
  const map = request.map;
  if (map?.kind === 'administrative' || (!map && answer?.kind === 'administrative')) {
    const maps = map ? [map] : administrativeMapsOf(answer!.canonical);
    for (const m of maps) {
      if (m.kind !== 'administrative') continue;
      for (const row of ADMINISTRATIVE_MAPPINGS) {
        if (row.conceptMapId !== m.conceptMapId || row.targetConceptId !== concept.concept_id) continue;
        out.add({ relationship: row.relationship, concept: { system: row.system, code: row.code }, values: [], originMap: m.url }, m.url);
      }
    }
    return;
  }
  if (map?.kind === 'to-vocabulary') {
    if (concept.vocabulary_id === map.vocabulary.vocabulary_id) out.add({ relationship: 'equivalent', concept: omopCoding(concept), values: [], originMap: originMapOf(ctx, map) }, usedMapOf(ctx, map));
    return;
  }
  const vocabularyIds = map?.kind === 'from-vocabulary' ? [map.vocabulary.vocabulary_id] : answer?.kind === 'vocabulary' ? answer.vocabularyIds : undefined;
  for (const vocabularyId of vocabularyIds ?? []) ctx.view.assertVisible(vocabularyId);
  const sources = related(ctx, out, concept, MAPPED_FROM, vocabularyIds);
  if (isValidStandard(concept) && (!vocabularyIds || vocabularyIds.includes(concept.vocabulary_id))) sources.unshift(concept);
  for (const source of sources.slice(0, MAX_MATCHES)) {
    const vocabulary = ctx.view.store.metadata.vocabulary(source.vocabulary_id);
    const sourceMap = map ?? (vocabulary ? fromVocabularyMap(vocabulary) : undefined);
    if (!sourceMap) continue;
    const answerCoding = answer?.kind === 'omop-concept-id' ? omopCoding(source) : vocabularyCoding(source);
    out.add({ relationship: 'equivalent', concept: answerCoding, values: [], originMap: originMapOf(ctx, sourceMap) }, usedMapOf(ctx, sourceMap));
  }
}

/** Translates the codings (see the header). Throws ServiceError 403 for a named concept in a vocabulary the caller may not see. */
export function translate(ctx: TranslationContext, request: TranslationRequest): TranslationResult {
  const out = new Collector();
  const usedSystems: string[] = [];
  for (const coding of request.codings) {
    const used = usedSystemOf(ctx, coding.system);
    if (!usedSystems.includes(used)) usedSystems.push(used);
    if (request.reverse) translateReverse(ctx, out, coding, request);
    else translateForward(ctx, out, coding, request);
  }
  const result = out.matches.some((m) => m.relationship !== 'not-related-to');
  const message = out.notes.length > 0 ? out.notes.join(' ') : out.matches.length === 0 ? NO_TRANSLATIONS : undefined;
  return {
    result,
    ...(message ? { message } : {}),
    usedSystems,
    usedConceptMaps: [...out.usedConceptMaps],
    matches: out.matches,
  };
}
