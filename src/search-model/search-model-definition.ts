/**
 * Everything of the search model a built search index bakes in, as plain data (rank bands, length buckets,
 * authority order, stop words, tokenizer, exact-key hash), hashed into the fingerprint with which a store built
 * otherwise is refused.
 */
import { VOCABULARY_AUTHORITY } from './vocabulary-authority.js';
import {
  BAND_COUNT,
  bandOf,
  CORE_DOMAINS,
  DEMOTED_CLASS_GROUPS,
  LENGTH_BUCKET_COUNT,
  lengthBucket,
  nameLength,
  ORD_SPAN,
  Partition,
  partitionOf,
  staticSortKey,
} from './ranking.js';
import { STOP_WORDS, wordSetKey } from './stop-words.js';
import { exactKey, exactKeyHash, indexText, tokenize, wordSetHash } from './text-normalization.js';

/** Texts that exercise the tokenizer, the exact key and the hashes (ASCII, punctuation, accents, CJK, surrogates). */
const TEXT_PROBES: readonly string[] = [
  'Type 2 diabetes mellitus',
  'COVID-19  pneumonia',
  "Sjögren's syndrome",
  'Ｆｕｌｌｗｉｄｔｈ Ⅳ',
  'Ångström — µg/mL, 5.0 %',
  '糖尿病',
  'emoji 🩺 stethoscope',
  'the OF and due with',
];

/** Concept shapes that exercise every partition and the core/other domain split. */
const BAND_PROBES = [
  { standard_concept: 'S', concept_class_id: 'Clinical Finding', invalid_reason: null, domain_id: 'Condition' },
  { standard_concept: 'S', concept_class_id: 'Clinical Finding', invalid_reason: null, domain_id: 'Observation' },
  { standard_concept: 'C', concept_class_id: 'ATC 4th', invalid_reason: null, domain_id: 'Drug' },
  { standard_concept: null, concept_class_id: 'Clinical Finding', invalid_reason: null, domain_id: 'Procedure' },
  { standard_concept: 'S', concept_class_id: 'Answer', invalid_reason: null, domain_id: 'Meas Value' },
  { standard_concept: 'C', concept_class_id: 'LOINC Component', invalid_reason: null, domain_id: 'Measurement' },
  { standard_concept: null, concept_class_id: 'Survey', invalid_reason: null, domain_id: 'Observation' },
  { standard_concept: 'S', concept_class_id: 'Clinical Finding', invalid_reason: 'D', domain_id: 'Device' },
  { standard_concept: null, concept_class_id: 'Clinical Finding', invalid_reason: 'U', domain_id: 'Spec Anatomic Site' },
] as const;

/** The search model a store's order and index depend on (canonical: arrays and plain objects only). */
export function searchModelDefinition(): Record<string, unknown> {
  return {
    vocabulary_authority: [...VOCABULARY_AUTHORITY],
    core_domains: [...CORE_DOMAINS].sort(),
    demoted_class_groups: DEMOTED_CLASS_GROUPS.map((g) => [g.group, [...g.conceptClassIds]]),
    partitions: Object.entries(Partition).filter(([, v]) => typeof v === 'number'),
    band_count: BAND_COUNT,
    ord_span: ORD_SPAN,
    bands: BAND_PROBES.map((c) => bandOf(partitionOf(c), c.domain_id)),
    length_bucket_count: LENGTH_BUCKET_COUNT,
    // the first name length of every bucket
    length_bucket_starts: Array.from({ length: LENGTH_BUCKET_COUNT }, (_, b) => {
      let n = 1;
      while (lengthBucket(n) < b && n < 1_000_000) n++;
      return n;
    }),
    static_sort_keys: [
      staticSortKey(7, 'SNOMED', 1),
      staticSortKey(60, 'ICD10CM', 35_207_668),
      staticSortKey(3000, 'Unknown vocabulary', 2_147_483_647),
    ],
    name_lengths: TEXT_PROBES.map(nameLength),
    stop_words: [...STOP_WORDS].sort(),
    tokens: TEXT_PROBES.map(tokenize),
    index_texts: TEXT_PROBES.map(indexText),
    exact_keys: TEXT_PROBES.map(exactKey),
    exact_key_hashes: TEXT_PROBES.map(exactKeyHash),
    word_set_hashes: TEXT_PROBES.map((t) => wordSetHash(wordSetKey(tokenize(t)))),
  };
}
