/**
 * The query of a meaning-based search: its length rule (1–SEMANTIC_QUERY_MAX_LENGTH characters after trimming) and
 * its only enhancement, the whole-query abbreviation expansion of keyword search.
 */
import { validationError } from '../errors.js';
import { expandWholeQueryAbbreviation } from '../search/abbreviations.js';

export const SEMANTIC_QUERY_MAX_LENGTH = 500;

export interface QueryEnhancement {
  original_query: string;
  enhanced_query: string;
  abbreviations_expanded: string[];
  misspellings_corrected: string[];
}

export interface SemanticQuery {
  /** The query as given, trimmed. */
  text: string;
  /** What is embedded and scored (the first expansion of a whole-query abbreviation, else `text`). */
  searchText: string;
  enhancement: QueryEnhancement;
}

/** Validates (400 naming `parameter`) and enhances a query. */
export function semanticQuery(raw: unknown, parameter = 'query'): SemanticQuery {
  if (typeof raw !== 'string' || raw.trim().length === 0) {
    throw validationError(`Missing required parameter '${parameter}': give the text to search for (1 to ${SEMANTIC_QUERY_MAX_LENGTH} characters).`, {
      parameter,
    });
  }
  const text = raw.trim();
  const length = [...text].length;
  if (length > SEMANTIC_QUERY_MAX_LENGTH) {
    throw validationError(`Parameter '${parameter}' is ${length} characters long; at most ${SEMANTIC_QUERY_MAX_LENGTH} are accepted.`, { parameter });
  }
  const abbreviation = expandWholeQueryAbbreviation(text);
  const searchText = abbreviation ? abbreviation.expansions[0]! : text;
  return {
    text,
    searchText,
    enhancement: {
      original_query: text,
      enhanced_query: searchText,
      abbreviations_expanded: abbreviation ? [abbreviation.abbreviation] : [],
      misspellings_corrected: [],
    },
  };
}
