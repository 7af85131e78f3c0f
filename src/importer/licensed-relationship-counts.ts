/**
 * Derives `licensed_concept` and `licensed_relationship_count`, which let a concept's relationships be counted and
 * paged for a key that may not see some vocabularies (CPT4 without validation; GPI and MedDRA never) without
 * joining to CONCEPT.
 */
import { NEVER_SERVED_VOCABULARIES, VALIDATION_REQUIRED_VOCABULARIES } from '../licences/licence-rules.js';
import { formatQuantity } from './format.js';
import type { IndexBuilder } from './index-builder.js';

export const LICENSED_RELATIONSHIP_DDL = `
CREATE TABLE licensed_concept (
  concept_id    INTEGER PRIMARY KEY,
  vocabulary_id TEXT NOT NULL
);
CREATE TABLE licensed_relationship_count (
  concept_id         INTEGER NOT NULL,
  direction          INTEGER NOT NULL, -- 0 outbound, 1 inbound
  relationship_id    TEXT NOT NULL,
  vocabulary_id      TEXT NOT NULL,    -- of the licensed concept at the other end
  is_invalid         INTEGER NOT NULL, -- 1 when the row has an invalid_reason
  relationship_count INTEGER NOT NULL,
  PRIMARY KEY (concept_id, direction, relationship_id, vocabulary_id, is_invalid)
) WITHOUT ROWID;
`;

const LICENSED_VOCABULARIES: readonly string[] = [...NEVER_SERVED_VOCABULARIES, ...VALIDATION_REQUIRED_VOCABULARIES];

export const licensedRelationshipCountsBuilder: IndexBuilder = {
  name: 'licensed relationship counts',
  build({ db, log }) {
    db.exec(LICENSED_RELATIONSHIP_DDL);
    const marks = LICENSED_VOCABULARIES.map(() => '?').join(', ');
    const concepts = db
      .prepare(`INSERT INTO licensed_concept SELECT concept_id, vocabulary_id FROM concept WHERE vocabulary_id IN (${marks}) ORDER BY concept_id`)
      .run(...LICENSED_VOCABULARIES).changes;
    const counts = db
      .prepare(
        `INSERT INTO licensed_relationship_count
         SELECT concept_id, direction, relationship_id, vocabulary_id, is_invalid, sum(n) FROM (
           SELECT r.concept_id_1 AS concept_id, 0 AS direction, r.relationship_id, l.vocabulary_id, r.invalid_reason IS NOT NULL AS is_invalid, 1 AS n
             FROM licensed_concept l CROSS JOIN concept_relationship r INDEXED BY relationship_by_concept_2 ON r.concept_id_2 = l.concept_id
           UNION ALL
           SELECT r.concept_id_2, 1, r.relationship_id, l.vocabulary_id, r.invalid_reason IS NOT NULL, 1
             FROM licensed_concept l CROSS JOIN concept_relationship r ON r.concept_id_1 = l.concept_id)
         GROUP BY concept_id, direction, relationship_id, vocabulary_id, is_invalid`,
      )
      .run().changes;
    log(`${formatQuantity(concepts, 'licensed concept', 'licensed concepts')}, ${formatQuantity(counts, 'count row', 'count rows')}`);
  },
};
