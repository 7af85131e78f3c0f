/**
 * What the statistics figures mean, written once here and served in the responses (`quality_metrics.definitions`),
 * the OpenAPI descriptions and the README.
 */
export const STATISTICS_DEFINITIONS = {
  hierarchy:
    'Hierarchy members are the concepts of the vocabulary with a CONCEPT_ANCESTOR row (as ancestor or descendant). The ancestry of a ' +
    'release can cross vocabularies (ATC classes above RxNorm ingredients), and depths count those levels too. depth = the largest ' +
    'min_levels_of_separation among the concept\'s ancestor rows (0 for a concept with none but itself); root = a member without an ' +
    'ancestor other than itself; leaf = a member without a descendant other than itself; average_depth = mean depth of the members.',
  relationships:
    'Valid CONCEPT_RELATIONSHIP rows (invalid_reason empty) whose concept_id_1 is a concept of the vocabulary, counted per relationship_id.',
  mapping:
    "A concept is mapped when it has a valid 'Maps to' row to another concept (a standard concept's 'Maps to' itself is not a mapping). " +
    'mapping_count = such rows into the target vocabulary; coverage_percentage = concepts of the vocabulary mapped into the target ' +
    'vocabulary / all concepts of the vocabulary × 100.',
  languages:
    'From CONCEPT_SYNONYM.language_concept_id (concept names carry no language_concept_id). supported_languages = names of the ' +
    'language concepts of the vocabulary\'s synonyms; primary_language = the language with the most synonyms (ties: the lower ' +
    'language_concept_id), and when no synonym of the vocabulary carries a language, the language of its concept names: English ' +
    '(concept 4180186, named as in the release), as Athena publishes every concept_name in English; multilingual_concepts = ' +
    'concepts with synonyms in two or more languages.',
  orphaned_concepts:
    'Concepts with no valid CONCEPT_RELATIONSHIP row as concept_id_1 (Athena stores every relationship in both directions) and no ' +
    'CONCEPT_ANCESTOR row linking them to another concept.',
  duplicate_codes: 'concept_code values carried by more than one concept of the vocabulary (exact, case-sensitive), each counted once.',
  missing_descriptions: 'Concepts whose concept_name is empty or white space only (Athena has no other description field).',
  completeness_score: 'Fraction of the vocabulary\'s concepts that have a name and are not orphaned (0 to 1).',
  consistency_score:
    'Fraction of the vocabulary\'s concepts whose code no other concept of the vocabulary carries, whose valid_start_date is not after ' +
    'their valid_end_date, and that are not both invalid (invalid_reason set) and standard or classification (0 to 1).',
  trend_data:
    'Per calendar year of the valid dates: concepts_added = concepts whose valid_start_date falls in the year; concepts_modified = ' +
    "concepts replaced (invalid_reason 'U') and concepts_deprecated = concepts deprecated (invalid_reason 'D') whose valid_end_date " +
    'falls in the year; total_concepts = concepts added up to the end of the year minus those replaced or deprecated by then.',
  release_trend:
    'One entry per loaded release that has concepts of the vocabulary, oldest first: its concept counts, and the change in ' +
    'total_concepts from the previous entry.',
  concept_growth_rate:
    'Percentage change of total_concepts from the newest earlier loaded release that has the vocabulary to this release; null when ' +
    'no earlier release with it is loaded.',
} as const;
