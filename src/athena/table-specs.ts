/**
 * The Athena vocabulary tables omopterm reads: their columns, value kinds and CDM v5.4 size
 * limits. Columns are matched to a file's header by name (case-insensitive), so the order in a
 * file does not matter; `columns` lists them in the CDM order.
 */

export type AthenaColumnKind = 'integer' | 'real' | 'date' | 'text';

export interface AthenaColumnSpec {
  name: string;
  kind: AthenaColumnKind;
  /** Required values must be present: an empty integer/date is an unreadable row, an empty text is kept as ''. */
  required: boolean;
  /** CDM varchar limit for text columns; longer values are kept and reported. */
  maxLength?: number;
}

export type AthenaTableName =
  | 'CONCEPT'
  | 'CONCEPT_RELATIONSHIP'
  | 'CONCEPT_ANCESTOR'
  | 'CONCEPT_SYNONYM'
  | 'VOCABULARY'
  | 'DOMAIN'
  | 'CONCEPT_CLASS'
  | 'RELATIONSHIP'
  | 'DRUG_STRENGTH';

export interface AthenaTableSpec {
  name: AthenaTableName;
  /** Table in the release store. */
  storeTable: string;
  columns: readonly AthenaColumnSpec[];
}

const int = (name: string, required = true): AthenaColumnSpec => ({ name, kind: 'integer', required });
const real = (name: string): AthenaColumnSpec => ({ name, kind: 'real', required: false });
const date = (name: string): AthenaColumnSpec => ({ name, kind: 'date', required: true });
const text = (name: string, maxLength: number, required = true): AthenaColumnSpec => ({ name, kind: 'text', required, maxLength });

export const CONCEPT_SPEC: AthenaTableSpec = {
  name: 'CONCEPT',
  storeTable: 'concept',
  columns: [
    int('concept_id'),
    text('concept_name', 255),
    text('domain_id', 20),
    text('vocabulary_id', 20),
    text('concept_class_id', 20),
    text('standard_concept', 1, false),
    text('concept_code', 50),
    date('valid_start_date'),
    date('valid_end_date'),
    text('invalid_reason', 1, false),
  ],
};

export const CONCEPT_RELATIONSHIP_SPEC: AthenaTableSpec = {
  name: 'CONCEPT_RELATIONSHIP',
  storeTable: 'concept_relationship',
  columns: [
    int('concept_id_1'),
    int('concept_id_2'),
    text('relationship_id', 20),
    date('valid_start_date'),
    date('valid_end_date'),
    text('invalid_reason', 1, false),
  ],
};

export const CONCEPT_ANCESTOR_SPEC: AthenaTableSpec = {
  name: 'CONCEPT_ANCESTOR',
  storeTable: 'concept_ancestor',
  columns: [int('ancestor_concept_id'), int('descendant_concept_id'), int('min_levels_of_separation'), int('max_levels_of_separation')],
};

export const CONCEPT_SYNONYM_SPEC: AthenaTableSpec = {
  name: 'CONCEPT_SYNONYM',
  storeTable: 'concept_synonym',
  columns: [int('concept_id'), text('concept_synonym_name', 1000), int('language_concept_id')],
};

export const VOCABULARY_SPEC: AthenaTableSpec = {
  name: 'VOCABULARY',
  storeTable: 'vocabulary',
  columns: [
    text('vocabulary_id', 20),
    text('vocabulary_name', 255),
    text('vocabulary_reference', 255, false),
    text('vocabulary_version', 255, false),
    int('vocabulary_concept_id'),
  ],
};

export const DOMAIN_SPEC: AthenaTableSpec = {
  name: 'DOMAIN',
  storeTable: 'domain',
  columns: [text('domain_id', 20), text('domain_name', 255), int('domain_concept_id')],
};

export const CONCEPT_CLASS_SPEC: AthenaTableSpec = {
  name: 'CONCEPT_CLASS',
  storeTable: 'concept_class',
  columns: [text('concept_class_id', 20), text('concept_class_name', 255), int('concept_class_concept_id')],
};

export const RELATIONSHIP_SPEC: AthenaTableSpec = {
  name: 'RELATIONSHIP',
  storeTable: 'relationship',
  columns: [
    text('relationship_id', 20),
    text('relationship_name', 255),
    text('is_hierarchical', 1),
    text('defines_ancestry', 1),
    text('reverse_relationship_id', 20),
    int('relationship_concept_id'),
  ],
};

export const DRUG_STRENGTH_SPEC: AthenaTableSpec = {
  name: 'DRUG_STRENGTH',
  storeTable: 'drug_strength',
  columns: [
    int('drug_concept_id'),
    int('ingredient_concept_id'),
    real('amount_value'),
    int('amount_unit_concept_id', false),
    real('numerator_value'),
    int('numerator_unit_concept_id', false),
    real('denominator_value'),
    int('denominator_unit_concept_id', false),
    int('box_size', false),
    date('valid_start_date'),
    date('valid_end_date'),
    text('invalid_reason', 1, false),
  ],
};

/** Every table omopterm reads, in load order: reference tables first, then CONCEPT, then the tables pointing at concepts. */
export const ATHENA_TABLE_SPECS: readonly AthenaTableSpec[] = [
  VOCABULARY_SPEC,
  DOMAIN_SPEC,
  CONCEPT_CLASS_SPEC,
  RELATIONSHIP_SPEC,
  CONCEPT_SPEC,
  CONCEPT_RELATIONSHIP_SPEC,
  CONCEPT_ANCESTOR_SPEC,
  CONCEPT_SYNONYM_SPEC,
  DRUG_STRENGTH_SPEC,
];

/** Index of a column within `spec.columns` (throws on a typo: specs are static). */
export function columnIndex(spec: AthenaTableSpec, name: string): number {
  const i = spec.columns.findIndex((c) => c.name === name);
  if (i < 0) throw new Error(`internal: ${spec.name} has no column ${name}`);
  return i;
}
