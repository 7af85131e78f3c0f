/**
 * The resolver's semantic fallback (specification resolver rule 3, `mapping_type` semantic_match):
 * the valid standard concepts whose name or synonym means most nearly what a display text says,
 * optionally within some domains, with their similarity (0..1) and the text that matched. Licence
 * rules apply as everywhere (see ./semantic-candidates.ts).
 */
import type { ConceptRecord } from '../../store/records.js';
import { semanticMatches, type SemanticContext } from './semantic-candidates.js';
import { semanticQuery } from './semantic-query.js';

export interface StandardConceptsForTextOptions {
  domainIds?: string[];
  /** At most this many concepts. */
  limit: number;
  /** Only concepts scoring at least this (0..1). */
  threshold: number;
}

export interface StandardConceptMatch {
  concept: ConceptRecord;
  similarity_score: number;
  matched_text: string;
}

/** Best first; empty when nothing reaches the threshold. A text that is blank or too long is a 400 naming `text`. */
export async function bestStandardConceptsForText(ctx: SemanticContext, text: string, options: StandardConceptsForTextOptions): Promise<StandardConceptMatch[]> {
  const query = semanticQuery(text, 'text');
  const matches = await semanticMatches(ctx, {
    text: query.searchText,
    filters: { domainIds: options.domainIds, standardConcepts: ['S'], includeInvalid: false },
    wanted: options.limit,
  });
  return matches.filter((m) => m.similarity_score >= options.threshold).slice(0, options.limit);
}
