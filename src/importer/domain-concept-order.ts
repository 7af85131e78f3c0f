/**
 * Derives `domain_concept_order`: every concept numbered 0.. within its segment (domain, vocabulary,
 * standard flag, validity) in concept_id order, inserted in key order. GET /v1/domains/{id}/concepts
 * then reads any page with a seek on (segment, position) instead of skipping its offset.
 */
import { formatQuantity } from './format.js';
import type { IndexBuilder } from './index-builder.js';

export const domainConceptOrderBuilder: IndexBuilder = {
  name: 'domain concept order',
  build({ db, log }) {
    const rows = db
      .prepare(
        `INSERT INTO domain_concept_order (domain_id, vocabulary_id, standard_concept, is_invalid, position, concept_id)
         SELECT domain_id, vocabulary_id, standard, invalid,
                row_number() OVER (PARTITION BY domain_id, vocabulary_id, standard, invalid ORDER BY concept_id) - 1,
                concept_id
           FROM (SELECT domain_id, vocabulary_id, coalesce(standard_concept, '') AS standard, invalid_reason IS NOT NULL AS invalid, concept_id
                   FROM concept NOT INDEXED)
          ORDER BY domain_id, vocabulary_id, standard, invalid, concept_id`,
      )
      .run().changes;
    log(`${formatQuantity(rows, 'concept')} numbered by domain`);
  },
};
