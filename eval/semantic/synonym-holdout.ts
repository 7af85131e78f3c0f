/**
 * Evaluation 1, synonym hold-out: for every indexed concept with a synonym worded differently from
 * its name, one such synonym is taken out of the release (its CONCEPT_SYNONYM rows are not
 * written) and becomes a query whose right answer is that concept.
 *
 * Which synonym: the first, in file order, whose wording differs from the name by more than a
 * trailing tag ("Fracture of collar bone" for "Fracture of clavicle"); only when every differing
 * synonym is the name plus a tag ("Gallstone (disorder)") is that one taken. Every row of the
 * concept with the same wording goes, so the held-out text is truly absent.
 */
import { indexText } from '../../src/search-model/text-normalization.js';
import type { AthenaRow, AthenaTables } from './athena-tables.js';
import { differsOnlyByTag, isIndexedConcept, sameWording } from './indexed-concepts.js';

export interface HoldOutQuery {
  /** The held-out synonym. */
  text: string;
  conceptId: number;
  conceptName: string;
  /** The synonym differs from the name only by a trailing parenthesised tag. */
  tagOnly: boolean;
  /** Another indexed concept of the release has this wording as its name or a synonym (the text alone cannot tell them apart). */
  textElsewhere: boolean;
}

export interface SynonymHoldOut {
  /** The release to search: the input without the held-out synonym rows. */
  tables: AthenaTables;
  queries: HoldOutQuery[];
}

export function holdOutSynonyms(tables: AthenaTables): SynonymHoldOut {
  const concepts = new Map((tables.CONCEPT ?? []).map((c) => [c.concept_id!, c]));
  const synonymsOf = new Map<string, AthenaRow[]>();
  for (const row of tables.CONCEPT_SYNONYM ?? []) {
    const list = synonymsOf.get(row.concept_id!) ?? [];
    list.push(row);
    synonymsOf.set(row.concept_id!, list);
  }
  const queries: HoldOutQuery[] = [];
  const removed = new Set<AthenaRow>();
  for (const [conceptId, rows] of synonymsOf) {
    const concept = concepts.get(conceptId);
    if (!concept || !isIndexedConcept(concept)) continue;
    const name = concept.concept_name!;
    const differing = rows.filter((r) => !sameWording(r.concept_synonym_name!, name));
    const chosen = differing.find((r) => !differsOnlyByTag(r.concept_synonym_name!, name)) ?? differing[0];
    if (!chosen) continue;
    const text = chosen.concept_synonym_name!;
    for (const r of rows) if (sameWording(r.concept_synonym_name!, text)) removed.add(r);
    queries.push({ text, conceptId: Number(conceptId), conceptName: name, tagOnly: differsOnlyByTag(text, name), textElsewhere: false });
  }
  const synonyms = (tables.CONCEPT_SYNONYM ?? []).filter((r) => !removed.has(r));
  const owners = new Map<string, Set<number>>();
  const own = (text: string, conceptId: string) => {
    const key = indexText(text);
    owners.set(key, (owners.get(key) ?? new Set()).add(Number(conceptId)));
  };
  for (const c of concepts.values()) if (isIndexedConcept(c)) own(c.concept_name!, c.concept_id!);
  for (const r of synonyms) if (concepts.get(r.concept_id!) && isIndexedConcept(concepts.get(r.concept_id!)!)) own(r.concept_synonym_name!, r.concept_id!);
  for (const q of queries) q.textElsewhere = [...(owners.get(indexText(q.text)) ?? [])].some((id) => id !== q.conceptId);
  return { tables: { ...tables, CONCEPT_SYNONYM: synonyms }, queries };
}
