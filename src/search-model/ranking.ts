/**
 * Where keyword search is ranked: the E4 rules 1–6, tie-breaks and demoted classes as data and small pure
 * functions, shared by the index builder (the static ord and band of each concept) and the search service (the
 * query's part).
 */
import { authorityRank } from './vocabulary-authority.js';

export const CORE_DOMAINS: ReadonlySet<string> = new Set(['Condition', 'Drug', 'Procedure', 'Measurement', 'Device']);

/** E4 "Non-clinical (demoted) classes", with reading note 2's names for the lab code system (LOINC). */
export const DEMOTED_CLASS_GROUPS: ReadonlyArray<{ group: string; conceptClassIds: readonly string[] }> = [
  { group: 'Questionnaire artifacts', conceptClassIds: ['Answer', 'Survey', 'Value'] },
  {
    group: 'Structural fragments of a lab code system',
    conceptClassIds: ['LOINC Component', 'LOINC System', 'LOINC Method', 'LOINC Property', 'LOINC Time', 'LOINC Scale', 'LOINC Document Type'],
  },
];

export const DEMOTED_CONCEPT_CLASSES: ReadonlySet<string> = new Set(DEMOTED_CLASS_GROUPS.flatMap((g) => g.conceptClassIds));

/** The domain whose naming in `domain_ids` turns the demotion off. */
export const DEMOTION_OFF_DOMAIN = 'Meas Value';

/**
 * Query-independent partition of a concept. Artifacts keep their natural standard status so that
 * the demotion can be switched off per request.
 */
export enum Partition {
  Standard = 0,
  Classification = 1,
  NonStandard = 2,
  ArtifactStandard = 3,
  ArtifactClassification = 4,
  ArtifactNonStandard = 5,
  Invalid = 6,
}

const PARTITION_COUNT = 7;
/** A band is a partition split into core domains (even band) and other domains (odd band). */
export const BAND_COUNT = PARTITION_COUNT * 2;
/** rank = band × 2^ORD_BITS + ord: one number that names a concept's place in the index. */
const ORD_BITS = 26;
export const ORD_SPAN = 2 ** ORD_BITS;

export interface RankableConcept {
  concept_id: number;
  concept_name: string;
  domain_id: string;
  vocabulary_id: string;
  concept_class_id: string;
  standard_concept: string | null;
  invalid_reason: string | null;
}

export function partitionOf(c: Pick<RankableConcept, 'standard_concept' | 'concept_class_id' | 'invalid_reason'>): Partition {
  if (c.invalid_reason) return Partition.Invalid;
  const artifact = DEMOTED_CONCEPT_CLASSES.has(c.concept_class_id);
  if (c.standard_concept === 'S') return artifact ? Partition.ArtifactStandard : Partition.Standard;
  if (c.standard_concept === 'C') return artifact ? Partition.ArtifactClassification : Partition.Classification;
  return artifact ? Partition.ArtifactNonStandard : Partition.NonStandard;
}

export function bandOf(partition: Partition, domainId: string): number {
  return partition * 2 + (CORE_DOMAINS.has(domainId) ? 0 : 1);
}

export function bandIsCore(band: number): boolean {
  return band % 2 === 0;
}

export function bandPartition(band: number): Partition {
  return Math.floor(band / 2) as Partition;
}

export function bandOfRank(rank: number): number {
  return Math.floor(rank / ORD_SPAN);
}

export function ordOfRank(rank: number): number {
  return rank % ORD_SPAN;
}

/** Evidence classes of E4 rules 2–6, in rank order; `any_valid` is every valid concept (demotion off). */
export type EvidenceClass = 'standard' | 'classification' | 'non_standard' | 'artifact' | 'invalid' | 'any_valid';

export interface RankGroup {
  /**
   * Position in the full group list (0–9) of the demoted order; used by match_score. With the
   * demotion off the valid group scores as group 0 and the invalid group as the first invalid group.
   */
  index: number;
  evidence: EvidenceClass;
  /** true: core domains only; false: other domains only; undefined: every domain (demotion off). */
  core: boolean | undefined;
  /** Bands merged (in ord order) into this group. */
  bands: number[];
}

/** Groups 0–9 when the demotion applies. */
export const MAX_GROUP_COUNT = 10;
const INVALID_GROUP_INDEX = 8;

const VALID_PARTITIONS: readonly Partition[] = [
  Partition.Standard,
  Partition.Classification,
  Partition.NonStandard,
  Partition.ArtifactStandard,
  Partition.ArtifactClassification,
  Partition.ArtifactNonStandard,
];

/** Both bands (core, other domains) of each partition. */
const bandsOf = (partitions: readonly Partition[], core?: boolean): number[] =>
  partitions.flatMap((p) => (core === undefined ? [p * 2, p * 2 + 1] : [p * 2 + (core ? 0 : 1)]));

/**
 * The rank groups of a search, in rank order; the text tiers are applied inside each group.
 *
 * - Demotion on (the default): rules 2–6 in order (standard, classification, non-standard,
 *   artifact, invalid), each split into core domains then the others.
 * - Demotion off (E4, last sentence: a demoted class in concept_class_ids or Meas Value in
 *   domain_ids): "ranks on text relevance alone" — one group of every valid concept, so the text
 *   tier comes first and then the static order (similarity, authority, length, id); evidence class
 *   and core domain do not order the results. Invalid concepts stay after the valid ones (rule 6).
 */
export function rankGroups(options: { demotion: boolean; includeInvalid: boolean }): RankGroup[] {
  if (!options.demotion) {
    const groups: RankGroup[] = [{ index: 0, evidence: 'any_valid', core: undefined, bands: bandsOf(VALID_PARTITIONS) }];
    if (options.includeInvalid) groups.push({ index: INVALID_GROUP_INDEX, evidence: 'invalid', core: undefined, bands: bandsOf([Partition.Invalid]) });
    return groups;
  }
  const classes: Array<[EvidenceClass, Partition[]]> = [
    ['standard', [Partition.Standard]],
    ['classification', [Partition.Classification]],
    ['non_standard', [Partition.NonStandard]],
    ['artifact', [Partition.ArtifactStandard, Partition.ArtifactClassification, Partition.ArtifactNonStandard]],
    ...(options.includeInvalid ? [['invalid', [Partition.Invalid]] as [EvidenceClass, Partition[]]] : []),
  ];
  const groups: RankGroup[] = [];
  for (const [evidence, partitions] of classes) {
    for (const core of [true, false]) groups.push({ index: groups.length, evidence, core, bands: bandsOf(partitions, core) });
  }
  return groups;
}

/**
 * Text tiers ("full-text rank"), best first. Every tier is a set of concepts; a concept is placed in
 * the best tier it qualifies for. "Required words" are the query words minus stop words. In the
 * prefix and fragment tiers each required word of 3+ characters may also occur as the start of a
 * longer word, or (fragment tiers) anywhere inside a word; words of 1–2 characters must match whole.
 * A word part matches every indexed word that starts with or contains it (see ./tier-plan.ts).
 */
export enum TextTier {
  /** The name equals the query (exactKey). match_type exact. */
  ExactName = 0,
  /** A published synonym equals the query, or (multi-word query) has the same word set (rule 4). match_type exact. */
  ExactSynonym = 1,
  /** The name contains the query's words as a phrase, in order (multi-word queries). */
  NamePhrase = 2,
  /** The name contains every required word. */
  NameWords = 3,
  /** Name and synonyms together contain every required word (a synonym match). */
  AnyWords = 4,
  /** The name contains every required word as a word or a word prefix ("diab" → diabetes). */
  NamePrefixes = 5,
  /** Name and synonyms together contain every required word as a word or a word prefix. */
  AnyPrefixes = 6,
  /** The name contains every required word as a word, prefix or substring inside a word ("iabet"). */
  NameFragments = 7,
  /** Name and synonyms together contain every required word as a word, prefix or substring. */
  AnyFragments = 8,
}

export const TEXT_TIER_COUNT = 9;
/** Tiers answered by the full-text index (the others by exact-key lookups). */
export const INDEXED_TIERS: readonly TextTier[] = [
  TextTier.NamePhrase,
  TextTier.NameWords,
  TextTier.AnyWords,
  TextTier.NamePrefixes,
  TextTier.AnyPrefixes,
  TextTier.NameFragments,
  TextTier.AnyFragments,
];

/** Rule 1 positions. */
export enum IdentifierTier {
  /** The concept of the authoritative vocabulary whose code equals the (code-shaped) query, or the concept whose id equals it. */
  Authoritative = 0,
  /** Valid standard `Maps to` targets of the authoritative concept. */
  MapsToTarget = 1,
  /** Any other concept whose concept_id or concept_code equals the query. */
  OtherIdentifier = 2,
}

/** Geometric name-length buckets: bucket b holds lengths in [1.2^b, 1.2^(b+1)). */
export const LENGTH_BUCKET_COUNT = 32;
const LOG_BASE = Math.log(1.2);

export function lengthBucket(nameLength: number): number {
  if (nameLength <= 1) return 0;
  return Math.min(LENGTH_BUCKET_COUNT - 1, Math.floor(Math.log(nameLength) / LOG_BASE + 1e-9));
}

/** Name length as ranked: characters (code points). */
export function nameLength(name: string): number {
  let n = name.length;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) n--; // a surrogate pair is one character
  }
  return n;
}

const authorityCache = new Map<string, number>();

// The fields of the static sort key, lowest first: concept_id < 2^31 (31 bits), name length clamped
// below 2048 (11 bits), authority below 64 (6 bits), length bucket < 32 (5 bits) → 53 bits.
const CONCEPT_ID_SPAN = 2 ** 31;
const NAME_LENGTH_SPAN = 2048;
const AUTHORITY_SPAN = 64;

/**
 * The query-independent order (items 4–5 of the sort key above) packed into one number:
 * (length bucket, authority, name length, concept_id). unpackStaticSortKey is its inverse.
 */
export function staticSortKey(nameLen: number, vocabularyId: string, conceptId: number): number {
  const bucket = lengthBucket(nameLen);
  let authority = authorityCache.get(vocabularyId);
  if (authority === undefined) authorityCache.set(vocabularyId, (authority = Math.min(AUTHORITY_SPAN - 1, authorityRank(vocabularyId))));
  const len = Math.min(NAME_LENGTH_SPAN - 1, nameLen);
  return ((bucket * AUTHORITY_SPAN + authority) * NAME_LENGTH_SPAN + len) * CONCEPT_ID_SPAN + conceptId;
}

/** The fields a static sort key was packed from (authority and name length as clamped by staticSortKey). */
export interface StaticSortFields {
  lengthBucket: number;
  authority: number;
  nameLength: number;
  conceptId: number;
}

/** The inverse of staticSortKey. */
export function unpackStaticSortKey(key: number): StaticSortFields {
  const high = Math.floor(key / CONCEPT_ID_SPAN);
  return {
    lengthBucket: sortKeyLengthBucket(key),
    authority: Math.floor(high / NAME_LENGTH_SPAN) % AUTHORITY_SPAN,
    nameLength: high % NAME_LENGTH_SPAN,
    conceptId: key - high * CONCEPT_ID_SPAN,
  };
}

/** The length bucket of a static sort key (unpackStaticSortKey(key).lengthBucket, without the object). */
export function sortKeyLengthBucket(key: number): number {
  return Math.floor(key / CONCEPT_ID_SPAN / NAME_LENGTH_SPAN / AUTHORITY_SPAN);
}

/* ----------------------------------------------------------------------------------------------
 * match_score (reading note 6): a monotone function of the sort key, so it never increases down
 * the result list, across pages. Rule 1 items score 1.00 (authoritative / id), 0.99 (Maps to
 * target), 0.98 (other identifiers); every text match scores
 *   0.97 × (P − p) / P,  p = (group.index × TEXT_TIER_COUNT + tier) × LENGTH_BUCKET_COUNT + bucket,
 *   P = MAX_GROUP_COUNT × TEXT_TIER_COUNT × LENGTH_BUCKET_COUNT,
 * rounded to 4 decimals (rounding keeps the order non-increasing). It is not a probability.
 * -------------------------------------------------------------------------------------------- */
const P = MAX_GROUP_COUNT * TEXT_TIER_COUNT * LENGTH_BUCKET_COUNT;

export function identifierScore(tier: IdentifierTier): number {
  return [1, 0.99, 0.98][tier]!;
}

export function textScore(groupIndex: number, tier: TextTier, bucket: number): number {
  const p = (groupIndex * TEXT_TIER_COUNT + tier) * LENGTH_BUCKET_COUNT + bucket;
  return Math.round(((0.97 * (P - p)) / P) * 10000) / 10000;
}

/**
 * For `min_score`: the highest length bucket of (group, tier) whose score still reaches the minimum,
 * or -1 when none does.
 */
export function lastBucketReaching(groupIndex: number, tier: TextTier, minScore: number): number {
  for (let b = LENGTH_BUCKET_COUNT - 1; b >= 0; b--) if (textScore(groupIndex, tier, b) >= minScore) return b;
  return -1;
}
