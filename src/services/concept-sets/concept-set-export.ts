/**
 * A concept-set expression written in the ATLAS CSV export's shape (the header of ATLAS_CSV_COLUMNS, one row an item,
 * every cell quoted), with each item's concept fields read through the caller's view: a concept the caller may not
 * see (or the release has not) keeps only its id and flags. `readAtlasCsv` reads it back into the same items.
 */
import type { ReleaseView } from '../release-view.js';
import { ATLAS_CSV_COLUMNS, type ConceptSetExpression } from './expression-formats.js';

const STANDARD_CAPTIONS: Record<string, string> = { S: 'Standard', C: 'Classification' };

/** One CSV cell, always quoted (quotes doubled), as ATLAS writes them. */
const cell = (value: string | number | boolean): string => `"${String(value).replace(/"/g, '""')}"`;

export function atlasCsvOfExpression(view: ReleaseView, expression: Pick<ConceptSetExpression, 'id' | 'name' | 'items'>): string {
  const concepts = new Map(view.concepts([...new Set(expression.items.map((i) => i.conceptId))]).map((c) => [c.concept_id, c]));
  const lines = [ATLAS_CSV_COLUMNS.map(cell).join(',')];
  for (const item of expression.items) {
    const c = concepts.get(item.conceptId);
    lines.push(
      [
        expression.id ?? '',
        expression.name ?? '',
        item.conceptId,
        c?.concept_code ?? '',
        c?.concept_name ?? '',
        c?.domain_id ?? '',
        c?.vocabulary_id ?? '',
        c ? (STANDARD_CAPTIONS[c.standard_concept ?? ''] ?? 'Non-Standard') : '',
        item.isExcluded,
        item.includeDescendants,
        item.includeMapped,
      ]
        .map(cell)
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
