/**
 * Recomputes the statistics of E2 and E5 straight from the Athena files of a fixture (TAB or comma
 * CSV), following the written definitions (src/services/statistics/statistics-definitions.ts) with
 * plain loops: the expected values of the statistics tests never come from the code under test.
 * Loader rules it mirrors: the first row of a duplicated concept id, relationship key or ancestor
 * pair is kept; rows pointing at missing concepts are kept.
 */
import { parse } from 'csv-parse/sync';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type Row = Record<string, string>;

function readTable(dir: string, name: string): Row[] {
  const text = readFileSync(join(dir, `${name}.csv`), 'utf8');
  const tab = text.slice(0, text.indexOf('\n')).includes('\t');
  return parse(text, { columns: true, delimiter: tab ? '\t' : ',', quote: tab ? false : '"', relax_column_count: true, skip_empty_lines: true }) as Row[];
}

const dateInt = (s: string) => Number(s.replace(/-/g, ''));
const blank = (s: string | undefined) => s === undefined || s === '';

export interface Concept {
  id: number;
  name: string;
  domain: string;
  vocabulary: string;
  conceptClass: string;
  standard: string | null;
  code: string;
  start: number;
  end: number;
  invalid: string | null;
}

export class AthenaCounts {
  readonly concepts = new Map<number, Concept>();
  readonly relationships: Array<{ c1: number; c2: number; rel: string; valid: boolean }> = [];
  readonly ancestors: Array<{ anc: number; desc: number; min: number }> = [];
  readonly synonyms: Array<{ id: number; language: number }> = [];

  constructor(readonly dir: string) {
    for (const r of readTable(dir, 'CONCEPT')) {
      const id = Number(r.concept_id);
      if (this.concepts.has(id)) continue;
      this.concepts.set(id, {
        id,
        name: r.concept_name ?? '',
        domain: r.domain_id!,
        vocabulary: r.vocabulary_id!,
        conceptClass: r.concept_class_id!,
        standard: blank(r.standard_concept) ? null : r.standard_concept!,
        code: r.concept_code!,
        start: dateInt(r.valid_start_date!),
        end: dateInt(r.valid_end_date!),
        invalid: blank(r.invalid_reason) ? null : r.invalid_reason!,
      });
    }
    const relKeys = new Set<string>();
    for (const r of readTable(dir, 'CONCEPT_RELATIONSHIP')) {
      const key = `${r.concept_id_1}|${r.relationship_id}|${r.concept_id_2}`;
      if (relKeys.has(key)) continue;
      relKeys.add(key);
      this.relationships.push({ c1: Number(r.concept_id_1), c2: Number(r.concept_id_2), rel: r.relationship_id!, valid: blank(r.invalid_reason) });
    }
    const ancKeys = new Set<string>();
    for (const r of readTable(dir, 'CONCEPT_ANCESTOR')) {
      const key = `${r.ancestor_concept_id}|${r.descendant_concept_id}`;
      if (ancKeys.has(key)) continue;
      ancKeys.add(key);
      this.ancestors.push({ anc: Number(r.ancestor_concept_id), desc: Number(r.descendant_concept_id), min: Number(r.min_levels_of_separation) });
    }
    for (const r of readTable(dir, 'CONCEPT_SYNONYM')) this.synonyms.push({ id: Number(r.concept_id), language: Number(r.language_concept_id) });
  }

  conceptsOf(vocabulary: string): Concept[] {
    return [...this.concepts.values()].filter((c) => c.vocabulary === vocabulary);
  }

  vocabularies(): string[] {
    return [...new Set([...this.concepts.values()].map((c) => c.vocabulary))].sort();
  }

  /** Every figure of E5 for one vocabulary, by the written definitions. */
  vocabularyFigures(vocabulary: string) {
    const concepts = this.conceptsOf(vocabulary);
    const ids = new Set(concepts.map((c) => c.id));
    const depth = new Map<number, number>();
    const hasParent = new Set<number>();
    const hasChild = new Set<number>();
    const member = new Set<number>();
    for (const a of this.ancestors) {
      if (ids.has(a.desc)) {
        member.add(a.desc);
        depth.set(a.desc, Math.max(depth.get(a.desc) ?? 0, a.min));
        if (a.anc !== a.desc) hasParent.add(a.desc);
      }
      if (ids.has(a.anc)) {
        member.add(a.anc);
        if (a.anc !== a.desc) hasChild.add(a.anc);
      }
    }
    const depthDistribution = new Map<number, number>();
    for (const id of member) depthDistribution.set(depth.get(id) ?? 0, (depthDistribution.get(depth.get(id) ?? 0) ?? 0) + 1);

    const relationshipCounts = new Map<string, number>();
    const related = new Set<number>();
    const mapped = new Set<number>();
    const targets = new Map<string, { rows: number; concepts: Set<number> }>();
    for (const r of this.relationships) {
      if (!ids.has(r.c1) || !r.valid) continue;
      related.add(r.c1);
      relationshipCounts.set(r.rel, (relationshipCounts.get(r.rel) ?? 0) + 1);
      const target = this.concepts.get(r.c2);
      if (r.rel === 'Maps to' && r.c2 !== r.c1 && target) {
        mapped.add(r.c1);
        const t = targets.get(target.vocabulary) ?? { rows: 0, concepts: new Set<number>() };
        t.rows++;
        t.concepts.add(r.c1);
        targets.set(target.vocabulary, t);
      }
    }

    const languages = new Map<number, { synonyms: number; concepts: Set<number> }>();
    const languagesOfConcept = new Map<number, Set<number>>();
    for (const s of this.synonyms) {
      if (!ids.has(s.id)) continue;
      const l = languages.get(s.language) ?? { synonyms: 0, concepts: new Set<number>() };
      l.synonyms++;
      l.concepts.add(s.id);
      languages.set(s.language, l);
      languagesOfConcept.set(s.id, (languagesOfConcept.get(s.id) ?? new Set()).add(s.language));
    }

    const codeUse = new Map<string, number>();
    for (const c of concepts) codeUse.set(c.code, (codeUse.get(c.code) ?? 0) + 1);
    const orphaned = concepts.filter((c) => !related.has(c.id) && !hasParent.has(c.id) && !hasChild.has(c.id));
    const unnamed = concepts.filter((c) => c.name.trim() === '');
    const complete = concepts.filter((c) => c.name.trim() !== '' && !orphaned.includes(c));
    const consistent = concepts.filter((c) => codeUse.get(c.code) === 1 && c.start <= c.end && !(c.invalid !== null && c.standard !== null));

    const years = new Map<number, { added: number; modified: number; deprecated: number }>();
    const year = (y: number) => years.get(y) ?? years.set(y, { added: 0, modified: 0, deprecated: 0 }).get(y)!;
    for (const c of concepts) {
      year(Math.floor(c.start / 10_000)).added++;
      if (c.invalid === 'U') year(Math.floor(c.end / 10_000)).modified++;
      else if (c.invalid !== null) year(Math.floor(c.end / 10_000)).deprecated++;
    }

    return {
      total: concepts.length,
      standard: concepts.filter((c) => c.standard === 'S').length,
      classification: concepts.filter((c) => c.standard === 'C').length,
      nonStandard: concepts.filter((c) => c.standard === null).length,
      invalid: concepts.filter((c) => c.invalid !== null).length,
      domains: countBy(concepts, (c) => c.domain),
      classes: countBy(concepts, (c) => c.conceptClass),
      members: member.size,
      depthDistribution,
      roots: [...member].filter((id) => !hasParent.has(id)).length,
      leaves: [...member].filter((id) => !hasChild.has(id)).length,
      relationshipCounts,
      mapped: mapped.size,
      targets,
      languages,
      multilingual: [...languagesOfConcept.values()].filter((s) => s.size > 1).length,
      orphaned: orphaned.length,
      duplicateCodes: [...codeUse.values()].filter((n) => n > 1).length,
      missingDescriptions: unnamed.length,
      complete: complete.length,
      consistent: consistent.length,
      years,
    };
  }
}

export function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const out = new Map<string, number>();
  for (const item of items) out.set(key(item), (out.get(key(item)) ?? 0) + 1);
  return out;
}
