/**
 * Validation and interpretation of the `query` parameter (E4 parameter rules, matching rules 1, 4
 * and 5, reading notes 4–5).
 */
import { validationError } from '../errors.js';
import { expandWholeQueryAbbreviation } from './abbreviations.js';
import { contentTokens, wordSetKey } from '../../search-model/stop-words.js';
import { exactKey, tokenize } from '../../search-model/text-normalization.js';

export const MIN_QUERY_LENGTH = 3;
export const MAX_QUERY_LENGTH = 500;

/** One phrasing to search for (the query itself, or one expansion of a whole-query abbreviation). */
export interface QueryPhrasing {
  text: string;
  /** Normalised form compared with names and synonyms for exact matches. */
  exactKey: string;
  /** Every word, stop words included (phrase matching). */
  tokens: string[];
  /** The words that must all match (stop words removed, unless the text is only stop words). */
  requiredTokens: string[];
  /** Search rule 4's sorted word set, for multi-word phrasings only. */
  wordSetKey: string | null;
}

export interface ParsedQuery {
  /** The query as given, trimmed. */
  text: string;
  /** The abbreviation that was expanded, or null. */
  abbreviation: string | null;
  /** Phrasings searched together; empty when the query has no letters or digits at all. */
  phrasings: QueryPhrasing[];
}

export function phrasing(text: string): QueryPhrasing | undefined {
  const tokens = tokenize(text);
  if (tokens.length === 0) return undefined;
  const content = contentTokens(tokens);
  const required = [...new Set(content.length ? content : tokens)];
  return {
    text,
    exactKey: exactKey(text),
    tokens,
    requiredTokens: required,
    wordSetKey: tokens.length >= 2 && content.length > 0 ? wordSetKey(tokens) : null,
  };
}

export interface QueryRules {
  minLength?: number;
  maxLength?: number;
  /** Name of the parameter in error messages. */
  parameter?: string;
}

/** Validates and interprets a search query; throws a 400 validation_error when it is not acceptable. */
export function parseQuery(raw: string | undefined, rules: QueryRules = {}): ParsedQuery {
  const parameter = rules.parameter ?? 'query';
  const min = rules.minLength ?? MIN_QUERY_LENGTH;
  const max = rules.maxLength ?? MAX_QUERY_LENGTH;
  const text = (raw ?? '').trim();
  if (text.length === 0) {
    throw validationError(`Missing required query parameter '${parameter}': give the text to search for (${min} to ${max} characters).`, {
      parameter,
      reason: 'required',
    });
  }
  const abbreviation = expandWholeQueryAbbreviation(text);
  if (abbreviation) {
    return {
      text,
      abbreviation: abbreviation.abbreviation,
      phrasings: abbreviation.expansions.map((e) => phrasing(e)!),
    };
  }
  const length = [...text].length;
  if (length < min) {
    throw validationError(
      `The query '${text}' is too broad: a search needs at least ${min} characters after trimming ` +
        `(or one of the whole-query abbreviations COPD, CHF, MI, T2DM, HTN, CKD).`,
      { parameter, reason: 'too_broad', min_length: min },
    );
  }
  if (length > max) {
    throw validationError(`The query is too long: at most ${max} characters are allowed (got ${length}).`, {
      parameter,
      reason: 'too_long',
      max_length: max,
    });
  }
  const p = phrasing(text);
  return { text, abbreviation: null, phrasings: p ? [p] : [] };
}
