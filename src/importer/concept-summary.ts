/**
 * Derives `concept_summary` (concepts counted per vocabulary, domain, class, standard flag and validity, with
 * their date range) with one GROUP BY over CONCEPT, so metadata and statistics endpoints aggregate this small
 * table instead of counting CONCEPT at request time; vocabulary_summary is derived from it.
 */
import { formatQuantity } from './format.js';
import type { IndexBuilder } from './index-builder.js';

export const conceptSummaryBuilder: IndexBuilder = {
  name: 'concept summary',
  build({ db, log }) {
    const rows = db
      .prepare(
        `INSERT INTO concept_summary
           (vocabulary_id, domain_id, concept_class_id, standard_concept, is_invalid, concept_count,
            earliest_start_date, latest_start_date, latest_end_date)
         SELECT vocabulary_id, domain_id, concept_class_id, standard_concept, invalid_reason IS NOT NULL,
                count(*), min(valid_start_date), max(valid_start_date), max(valid_end_date)
           FROM concept NOT INDEXED
          GROUP BY vocabulary_id, domain_id, concept_class_id, standard_concept, invalid_reason IS NOT NULL`,
      )
      .run().changes;
    log(`${formatQuantity(rows, 'vocabulary/domain/class group')} counted`);
  },
};
