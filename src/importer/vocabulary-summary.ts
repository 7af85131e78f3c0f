/**
 * Derives `vocabulary_summary` (per vocabulary: concept, standard, classification and invalid
 * counts, earliest/latest valid_start_date) from `concept_summary` (see ./concept-summary.ts, which
 * must run first), so metadata endpoints never scan the concept table at request time.
 */
import { formatQuantity } from './format.js';
import type { IndexBuilder } from './index-builder.js';

export const vocabularySummaryBuilder: IndexBuilder = {
  name: 'vocabulary summary',
  build({ db, log }) {
    const rows = db
      .prepare(
        `INSERT INTO vocabulary_summary
           (vocabulary_id, concept_count, standard_count, classification_count, invalid_count, earliest_start_date, latest_start_date)
         SELECT vocabulary_id,
                sum(concept_count),
                sum(CASE WHEN standard_concept = 'S' THEN concept_count ELSE 0 END),
                sum(CASE WHEN standard_concept = 'C' THEN concept_count ELSE 0 END),
                sum(CASE WHEN is_invalid = 1 THEN concept_count ELSE 0 END),
                min(earliest_start_date),
                max(latest_start_date)
           FROM concept_summary
          GROUP BY vocabulary_id`,
      )
      .run().changes;
    log(`${formatQuantity(rows, 'vocabulary', 'vocabularies')} summarised`);
  },
};
