/**
 * The physical layout of one release store, one SQLite file per release: the loader creates these tables, fills
 * them, builds the indexes and never writes again, and servers open the file read-only (the scale choices are in
 * docs/internals.md).
 */

/** Bumped whenever the layout changes; a server refuses stores of another version. */
export const STORE_SCHEMA_VERSION = 2;

export const STORE_FILE_NAME = 'store.sqlite';
export const MANIFEST_FILE_NAME = 'manifest.json';

/** Tables created before any data is inserted. Indexes come later (see INDEX_DDL). */
export const TABLE_DDL = `
CREATE TABLE store_meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE concept (
  concept_id       INTEGER PRIMARY KEY,
  concept_name     TEXT NOT NULL,
  domain_id        TEXT NOT NULL,
  vocabulary_id    TEXT NOT NULL,
  concept_class_id TEXT NOT NULL,
  standard_concept TEXT,            -- 'S', 'C' or NULL
  concept_code     TEXT NOT NULL,
  valid_start_date INTEGER NOT NULL, -- YYYYMMDD
  valid_end_date   INTEGER NOT NULL, -- YYYYMMDD
  invalid_reason   TEXT             -- 'D', 'U' or NULL
);

CREATE TABLE concept_relationship (
  concept_id_1     INTEGER NOT NULL,
  relationship_id  TEXT NOT NULL,
  concept_id_2     INTEGER NOT NULL,
  valid_start_date INTEGER NOT NULL,
  valid_end_date   INTEGER NOT NULL,
  invalid_reason   TEXT,
  PRIMARY KEY (concept_id_1, relationship_id, concept_id_2)
) WITHOUT ROWID;

CREATE TABLE concept_ancestor (
  ancestor_concept_id      INTEGER NOT NULL,
  descendant_concept_id    INTEGER NOT NULL,
  min_levels_of_separation INTEGER NOT NULL,
  max_levels_of_separation INTEGER NOT NULL,
  PRIMARY KEY (ancestor_concept_id, descendant_concept_id)
) WITHOUT ROWID;

CREATE TABLE concept_synonym (
  concept_id           INTEGER NOT NULL,
  concept_synonym_name TEXT NOT NULL,
  language_concept_id  INTEGER NOT NULL
);

CREATE TABLE drug_strength (
  drug_concept_id             INTEGER NOT NULL,
  ingredient_concept_id       INTEGER NOT NULL,
  amount_value                REAL,
  amount_unit_concept_id      INTEGER,
  numerator_value             REAL,
  numerator_unit_concept_id   INTEGER,
  denominator_value           REAL,
  denominator_unit_concept_id INTEGER,
  box_size                    INTEGER,
  valid_start_date            INTEGER NOT NULL,
  valid_end_date              INTEGER NOT NULL,
  invalid_reason              TEXT,
  PRIMARY KEY (drug_concept_id, ingredient_concept_id)
) WITHOUT ROWID;

CREATE TABLE vocabulary (
  vocabulary_id         TEXT PRIMARY KEY,
  vocabulary_name       TEXT NOT NULL,
  vocabulary_reference  TEXT,
  vocabulary_version    TEXT,
  vocabulary_concept_id INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE domain (
  domain_id         TEXT PRIMARY KEY,
  domain_name       TEXT NOT NULL,
  domain_concept_id INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE concept_class (
  concept_class_id         TEXT PRIMARY KEY,
  concept_class_name       TEXT NOT NULL,
  concept_class_concept_id INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE relationship (
  relationship_id         TEXT PRIMARY KEY,
  relationship_name       TEXT NOT NULL,
  is_hierarchical         TEXT NOT NULL,
  defines_ancestry        TEXT NOT NULL,
  reverse_relationship_id TEXT NOT NULL,
  relationship_concept_id INTEGER NOT NULL
) WITHOUT ROWID;

-- Derived at load time so that metadata endpoints never scan the concept table.
CREATE TABLE vocabulary_summary (
  vocabulary_id          TEXT PRIMARY KEY,
  concept_count          INTEGER NOT NULL,
  standard_count         INTEGER NOT NULL,
  classification_count   INTEGER NOT NULL,
  invalid_count          INTEGER NOT NULL,
  earliest_start_date    INTEGER,
  latest_start_date      INTEGER
) WITHOUT ROWID;

-- Derived at load time (src/importer/concept-summary.ts) with one GROUP BY over CONCEPT: concepts
-- counted per (vocabulary, domain, class, standard flag, validity). A few thousand rows at full scale,
-- so metadata and statistics endpoints aggregate it instead of scanning CONCEPT.
-- standard_concept is 'S', 'C' or NULL exactly as in CONCEPT; is_invalid is 1 when invalid_reason is
-- set ('D' or 'U'), else 0; dates are YYYYMMDD integers over the concepts of the row.
CREATE TABLE concept_summary (
  vocabulary_id       TEXT NOT NULL,
  domain_id           TEXT NOT NULL,
  concept_class_id    TEXT NOT NULL,
  standard_concept    TEXT,
  is_invalid          INTEGER NOT NULL,
  concept_count       INTEGER NOT NULL,
  earliest_start_date INTEGER NOT NULL,
  latest_start_date   INTEGER NOT NULL,
  latest_end_date     INTEGER NOT NULL
);

-- Derived at load time (src/importer/domain-concept-order.ts): every concept numbered within its
-- segment (domain, vocabulary, standard flag, validity) in concept_id order, so a page of
-- GET /v1/domains/{id}/concepts at any depth is one seek per segment it spans (segment sizes come
-- from concept_summary). standard_concept is 'S', 'C' or '' (non-standard: a key column cannot be NULL).
CREATE TABLE domain_concept_order (
  domain_id        TEXT NOT NULL,
  vocabulary_id    TEXT NOT NULL,
  standard_concept TEXT NOT NULL,
  is_invalid       INTEGER NOT NULL,
  position         INTEGER NOT NULL, -- 0-based within the segment
  concept_id       INTEGER NOT NULL,
  PRIMARY KEY (domain_id, vocabulary_id, standard_concept, is_invalid, position)
) WITHOUT ROWID;
`;

/** Secondary indexes, created after the bulk insert. */
export const INDEX_DDL = `
CREATE INDEX concept_by_vocabulary_code ON concept (vocabulary_id, concept_code);
CREATE INDEX concept_by_code_nocase ON concept (concept_code COLLATE NOCASE);
CREATE INDEX ancestor_by_descendant ON concept_ancestor
  (descendant_concept_id, ancestor_concept_id, min_levels_of_separation, max_levels_of_separation);
CREATE INDEX synonym_by_concept ON concept_synonym (concept_id);
-- A concept's rows as concept_id_2 (include_reverse, relationship options inbound), in the order they
-- are listed and with invalid_reason so that counting valid rows never reads the table.
CREATE INDEX relationship_by_concept_2 ON concept_relationship (concept_id_2, relationship_id, concept_id_1, invalid_reason);
`;

/** What `store_meta` holds (all values are strings; JSON where noted). */
export type StoreMetaKey =
  | 'schema_version'
  | 'label'
  | 'build_id'
  | 'source_vocabulary_version'
  | 'release_date' // YYYY-MM-DD, from the 'None' vocabulary row when it carries a date
  | 'loaded_at'
  | 'counts' // JSON: rows per table
  | 'anomalies'; // JSON: LoadAnomalySummary
