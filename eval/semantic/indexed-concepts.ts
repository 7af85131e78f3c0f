/**
 * Which concepts the evaluation queries can be answered with: the concepts the semantic index holds
 * (valid standard and classification concepts, as the design of issue #12 fixes it), and the word
 * form used to tell two texts apart.
 */
import { indexText } from '../../src/search-model/text-normalization.js';
import type { AthenaRow } from './athena-tables.js';

/** A CONCEPT row the semantic index holds: standard (S) or classification (C), not invalid. */
export function isIndexedConcept(row: AthenaRow): boolean {
  return (row.standard_concept === 'S' || row.standard_concept === 'C') && (row.invalid_reason ?? '') === '';
}

/** Two texts are the same wording when their words (E4 tokenisation) are equal. */
export function sameWording(a: string, b: string): boolean {
  return indexText(a) === indexText(b);
}

const TRAILING_TAG = /\s*\([^()]*\)\s*$/;

/** True when `text` is `name` plus a trailing parenthesised tag, e.g. SNOMED's "Gallstone (disorder)". */
export function differsOnlyByTag(text: string, name: string): boolean {
  return TRAILING_TAG.test(text) && sameWording(text.replace(TRAILING_TAG, ''), name);
}

