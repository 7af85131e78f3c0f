/**
 * Derives `vocabulary_summary` (per vocabulary: concept, standard, classification and invalid
 * counts, earliest/latest valid_start_date) with one GROUP BY over CONCEPT, so metadata endpoints
 * never scan the concept table at request time.
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
                count(*),
                count(CASE WHEN standard_concept = 'S' THEN 1 END),
                count(CASE WHEN standard_concept = 'C' THEN 1 END),
                count(invalid_reason),
                min(valid_start_date),
                max(valid_start_date)
           FROM concept NOT INDEXED
          GROUP BY vocabulary_id`,
      )
      .run().changes;
    log(`${formatQuantity(rows, 'vocabulary', 'vocabularies')} summarised`);
  },
};
