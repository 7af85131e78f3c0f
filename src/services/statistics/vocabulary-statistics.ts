/**
 * E5 vocabulary statistics, from the concept summary and the load-time statistics tables so a request is a few
 * small reads; the trend reads the same summaries of the other loaded releases (figures defined in
 * ./statistics-definitions.ts).
 */
import type { ReleaseView } from '../release-view.js';
import { domainCatalog } from '../domains/domain-catalog.js';
import { byCountThenKey, tally, tallyBy } from '../concept-tallies.js';
import { requireVocabulary } from '../vocabularies/vocabulary-catalog.js';
import type { ReleaseStore } from '../../store/release-store.js';
import type { VocabularyTallies } from '../../store/statistics-store.js';
import { STATISTICS_DEFINITIONS } from './statistics-definitions.js';
import { fraction, percentage, percentageChange } from './statistics-numbers.js';
import { relationshipTypeIndex } from '../concepts/relationship-types.js';

export interface VocabularyStatisticsOptions {
  include_hierarchy_stats?: boolean;
  include_domain_breakdown?: boolean;
  include_mapping_stats?: boolean;
  include_trend_data?: boolean;
}

/** A loaded release, for the cross-release figures. */
export interface LoadedRelease {
  label: string;
  store: ReleaseStore;
}

export interface ReleaseCounts {
  vocab_release: string;
  release_date: string | null;
  total_concepts: number;
  standard_concepts: number;
  classification_concepts: number;
  invalid_concepts: number;
  change_from_previous: number | null;
}

/** Athena's language concept of English (concept names are English); its name when the release lacks the concept. */
const ENGLISH_LANGUAGE_CONCEPT_ID = 4180186;
const ENGLISH_LANGUAGE_NAME = 'English language';

const EMPTY_TALLIES: VocabularyTallies = {
  concept_count: 0,
  hierarchy_concepts: 0,
  root_concepts: 0,
  leaf_concepts: 0,
  orphaned_concepts: 0,
  duplicate_codes: 0,
  missing_descriptions: 0,
  complete_concepts: 0,
  consistent_concepts: 0,
  mapped_concepts: 0,
  synonym_concepts: 0,
  multilingual_concepts: 0,
};

const conceptsOf = (store: ReleaseStore, vocabularyId: string) => store.metadata.conceptSummary().filter((r) => r.vocabulary_id === vocabularyId);

/** Concept counts of the vocabulary in every loaded release that has it, oldest label first. */
function releaseCounts(releases: readonly LoadedRelease[], vocabularyId: string): ReleaseCounts[] {
  const out: ReleaseCounts[] = [];
  for (const r of [...releases].sort((a, b) => a.label.localeCompare(b.label, 'en', { numeric: true }))) {
    const t = tally(conceptsOf(r.store, vocabularyId));
    if (t.total === 0) continue;
    const previous = out.at(-1);
    out.push({
      vocab_release: r.label,
      release_date: r.store.manifest.release_date,
      total_concepts: t.total,
      standard_concepts: t.standard,
      classification_concepts: t.classification,
      invalid_concepts: t.invalid,
      change_from_previous: previous ? t.total - previous.total_concepts : null,
    });
  }
  return out;
}

export function vocabularyStatistics(
  view: ReleaseView,
  vocabularyId: string,
  options: VocabularyStatisticsOptions,
  releases: readonly LoadedRelease[],
) {
  const vocabulary = requireVocabulary(view, vocabularyId);
  const label = view.store.manifest.label;
  const notes: string[] = [];
  const summary = conceptsOf(view.store, vocabularyId);
  const concepts = tally(summary);
  const tallies = view.store.statistics.vocabularyTallies(vocabularyId) ?? EMPTY_TALLIES;
  const total = concepts.total;
  if (total === 0) notes.push(`Release ${label} has no concept of ${vocabularyId}: every count is 0.`);

  const history = releaseCounts(releases, vocabularyId);
  const here = history.findIndex((h) => h.vocab_release === label);
  const previous = here > 0 ? history[here - 1]! : null;
  const growth = percentageChange(previous?.total_concepts ?? null, total);
  if (growth === null) notes.push(`concept_growth_rate is null: no release before ${label} with concepts of ${vocabularyId} is loaded.`);

  const classNames = new Map(view.store.metadata.conceptClasses().map((c) => [c.concept_class_id, c.concept_class_name]));
  const relationshipTypes = relationshipTypeIndex(view.store);
  const relationships = view.store.statistics.relationships(vocabularyId);
  const relationshipTotal = relationships.reduce((sum, r) => sum + r.relationship_count, 0);
  const languages = view.store.statistics.languages(vocabularyId);
  const languageName = (id: number) => view.store.concepts.byId(id)?.concept_name ?? null;
  const unnamedLanguages = languages.filter((l) => languageName(l.language_concept_id) === null).map((l) => l.language_concept_id);
  if (unnamedLanguages.length) {
    notes.push(`Language concepts ${unnamedLanguages.join(', ')} are not in this release's CONCEPT table: they are listed by id.`);
  }
  // primary_language is a string for every vocabulary: the language with the most synonyms (ties: the
  // lower language_concept_id); with no synonym language, the language of the concept names, which
  // Athena publishes in English for every vocabulary (translations are CONCEPT_SYNONYM rows).
  const primaryLanguage = languages.length
    ? (languageName(languages[0]!.language_concept_id) ?? String(languages[0]!.language_concept_id))
    : (languageName(ENGLISH_LANGUAGE_CONCEPT_ID) ?? ENGLISH_LANGUAGE_NAME);
  if (languages.length === 0) {
    notes.push(`No synonym of ${vocabularyId} carries a language: supported_languages is empty and primary_language is that of the concept names (English).`);
  }

  const data: Record<string, unknown> = {
    vocabulary_id: vocabulary.vocabulary_id,
    vocabulary_name: vocabulary.vocabulary_name,
    vocabulary_version: vocabulary.vocabulary_version,
    analysis_date: view.store.manifest.loaded_at.slice(0, 10),
    vocab_release: label,
    concept_statistics: {
      total_concepts: total,
      standard_concepts: concepts.standard,
      classification_concepts: concepts.classification,
      non_standard_concepts: total - concepts.standard - concepts.classification,
      invalid_concepts: concepts.invalid,
      concept_growth_rate: growth,
    },
  };
  if (options.include_hierarchy_stats) {
    const depths = view.store.statistics.depths(vocabularyId);
    const members = depths.reduce((sum, d) => sum + d.concept_count, 0);
    if (members === 0) notes.push(`No concept of ${vocabularyId} is in CONCEPT_ANCESTOR: the hierarchy figures are 0.`);
    data.hierarchy_statistics = {
      hierarchy_concepts: members,
      max_hierarchy_depth: depths.length ? depths.at(-1)!.depth : 0,
      average_depth: members ? Math.round((depths.reduce((sum, d) => sum + d.depth * d.concept_count, 0) / members) * 100) / 100 : 0,
      root_concepts: tallies.root_concepts,
      leaf_concepts: tallies.leaf_concepts,
      depth_distribution: depths.map((d) => ({ depth: d.depth, concept_count: d.concept_count })),
    };
  }
  if (options.include_domain_breakdown) {
    const domains = [...tallyBy(summary, (r) => r.domain_id)].sort(byCountThenKey);
    const domainNames = new Map(domainCatalog(view).map((d) => [d.domain_id, d.domain_name]));
    data.domain_statistics = {
      domains_covered: domains.length,
      domain_distribution: domains.map(([id, t]) => ({
        domain_id: id,
        domain_name: domainNames.get(id) ?? id,
        concept_count: t.total,
        percentage: percentage(t.total, total),
      })),
    };
  }
  const classes = [...tallyBy(summary, (r) => r.concept_class_id)].sort(byCountThenKey);
  data.concept_class_statistics = {
    total_concept_classes: classes.length,
    class_distribution: classes.map(([id, t]) => ({
      concept_class_id: id,
      concept_class_name: classNames.get(id) ?? id,
      concept_count: t.total,
      percentage: percentage(t.total, total),
    })),
  };
  data.relationship_statistics = {
    total_relationships: relationshipTotal,
    unique_relationship_types: relationships.length,
    relationship_type_distribution: relationships.map((r) => ({
      relationship_id: r.relationship_id,
      relationship_name: relationshipTypes.get(r.relationship_id)?.relationship_name ?? r.relationship_id,
      count: r.relationship_count,
      percentage: percentage(r.relationship_count, relationshipTotal),
    })),
  };
  if (options.include_mapping_stats) {
    const targets = view.store.statistics.mappingTargets(vocabularyId);
    const visibleTargets = targets.filter((t) => view.canSee(t.target_vocabulary_id));
    if (visibleTargets.length < targets.length) notes.push('Mapping targets in vocabularies this key may not see are left out of target_vocabularies.');
    if (tallies.mapped_concepts === 0) notes.push(`No concept of ${vocabularyId} has a valid 'Maps to' row to another concept.`);
    data.mapping_statistics = {
      mapped_concepts: tallies.mapped_concepts,
      unmapped_concepts: total - tallies.mapped_concepts,
      mapping_coverage_percentage: percentage(tallies.mapped_concepts, total),
      target_vocabularies: visibleTargets.map((t) => ({
        target_vocabulary_id: t.target_vocabulary_id,
        mapping_count: t.mapping_count,
        mapped_concepts: t.mapped_concepts,
        coverage_percentage: percentage(t.mapped_concepts, total),
      })),
    };
  }
  data.language_statistics = {
    supported_languages: languages.map((l) => languageName(l.language_concept_id) ?? String(l.language_concept_id)),
    primary_language: primaryLanguage,
    multilingual_concepts: tallies.multilingual_concepts,
    concepts_with_synonyms: tallies.synonym_concepts,
    languages: languages.map((l) => ({
      language_concept_id: l.language_concept_id,
      language_name: languageName(l.language_concept_id),
      synonym_count: l.synonym_count,
      concept_count: l.concept_count,
    })),
  };
  data.quality_metrics = {
    completeness_score: fraction(tallies.complete_concepts, total),
    consistency_score: fraction(tallies.consistent_concepts, total),
    accuracy_indicators: {
      orphaned_concepts: tallies.orphaned_concepts,
      duplicate_codes: tallies.duplicate_codes,
      missing_descriptions: tallies.missing_descriptions,
    },
    definitions: {
      completeness_score: STATISTICS_DEFINITIONS.completeness_score,
      consistency_score: STATISTICS_DEFINITIONS.consistency_score,
      orphaned_concepts: STATISTICS_DEFINITIONS.orphaned_concepts,
      duplicate_codes: STATISTICS_DEFINITIONS.duplicate_codes,
      missing_descriptions: STATISTICS_DEFINITIONS.missing_descriptions,
    },
  };
  if (options.include_trend_data) {
    let running = 0;
    data.trend_data = view.store.statistics.periods(vocabularyId).map((p) => {
      running += p.concepts_added - p.concepts_modified - p.concepts_deprecated;
      return {
        period: String(p.year),
        total_concepts: running,
        concepts_added: p.concepts_added,
        concepts_modified: p.concepts_modified,
        concepts_deprecated: p.concepts_deprecated,
      };
    });
    data.release_trend = history;
    if (history.length < 2) notes.push(`release_trend has one entry: no other loaded release has concepts of ${vocabularyId}.`);
  }
  data.notes = notes;
  return data;
}
