/**
 * Adds up the per-concept facts of the statistics pass (./statistics-summary.ts) per vocabulary and writes the
 * statistics_* rows, implementing STATISTICS_DEFINITIONS (src/services/statistics/statistics-definitions.ts).
 */
import type Database from 'better-sqlite3';

/** What the pass knows about one concept. */
export interface ConceptFacts {
  vocabularyId: string;
  validStart: number; // YYYYMMDD
  validEnd: number; // YYYYMMDD
  invalidReason: string | null;
  standardConcept: string | null;
  /** concept_name is empty or white space only. */
  unnamed: boolean;
  /** Has a CONCEPT_ANCESTOR row, as ancestor or as descendant. */
  inHierarchy: boolean;
  /** max(min_levels_of_separation) over its rows as descendant (0 without such rows). */
  depth: number;
  /** Has an ancestor other than itself. */
  hasParent: boolean;
  /** Has a descendant other than itself. */
  hasChild: boolean;
  /** relationship_id of each valid CONCEPT_RELATIONSHIP row whose concept_id_1 it is. */
  relationshipIds: string[];
  /** Vocabulary of the target of each valid 'Maps to' row to another concept. */
  mapTargets: string[];
  /** language_concept_id of each synonym. */
  languages: number[];
  /** Its concept_code is carried by another concept of the vocabulary too. */
  duplicateCode: boolean;
}

class VocabularyTotals {
  concepts = 0;
  hierarchy = 0;
  roots = 0;
  leaves = 0;
  orphaned = 0;
  missingDescriptions = 0;
  complete = 0;
  consistent = 0;
  mapped = 0;
  withSynonyms = 0;
  multilingual = 0;
  readonly depths = new Map<number, number>();
  readonly relationships = new Map<string, number>();
  readonly targets = new Map<string, { rows: number; concepts: number }>();
  readonly languages = new Map<number, { synonyms: number; concepts: number }>();
  readonly years = new Map<number, { added: number; modified: number; deprecated: number }>();

  year(y: number) {
    let entry = this.years.get(y);
    if (!entry) this.years.set(y, (entry = { added: 0, modified: 0, deprecated: 0 }));
    return entry;
  }
}

const yearOf = (yyyymmdd: number) => Math.floor(yyyymmdd / 10_000);

export class StatisticsAccumulator {
  private readonly vocabularies = new Map<string, VocabularyTotals>();

  add(c: ConceptFacts): void {
    let v = this.vocabularies.get(c.vocabularyId);
    if (!v) this.vocabularies.set(c.vocabularyId, (v = new VocabularyTotals()));
    v.concepts++;
    if (c.inHierarchy) {
      v.hierarchy++;
      v.depths.set(c.depth, (v.depths.get(c.depth) ?? 0) + 1);
      if (!c.hasParent) v.roots++;
      if (!c.hasChild) v.leaves++;
    }
    for (const r of c.relationshipIds) v.relationships.set(r, (v.relationships.get(r) ?? 0) + 1);
    const orphaned = c.relationshipIds.length === 0 && !c.hasParent && !c.hasChild;
    if (orphaned) v.orphaned++;
    if (c.unnamed) v.missingDescriptions++;
    if (!orphaned && !c.unnamed) v.complete++;
    const consistent = !c.duplicateCode && c.validStart <= c.validEnd && !(c.invalidReason !== null && c.standardConcept !== null);
    if (consistent) v.consistent++;

    if (c.mapTargets.length) {
      v.mapped++;
      const seen = new Set<string>();
      for (const target of c.mapTargets) {
        let t = v.targets.get(target);
        if (!t) v.targets.set(target, (t = { rows: 0, concepts: 0 }));
        t.rows++;
        if (!seen.has(target)) {
          seen.add(target);
          t.concepts++;
        }
      }
    }
    if (c.languages.length) {
      v.withSynonyms++;
      const seen = new Set<number>();
      for (const language of c.languages) {
        let l = v.languages.get(language);
        if (!l) v.languages.set(language, (l = { synonyms: 0, concepts: 0 }));
        l.synonyms++;
        if (!seen.has(language)) {
          seen.add(language);
          l.concepts++;
        }
      }
      if (seen.size > 1) v.multilingual++;
    }
    v.year(yearOf(c.validStart)).added++;
    if (c.invalidReason === 'U') v.year(yearOf(c.validEnd)).modified++;
    else if (c.invalidReason !== null) v.year(yearOf(c.validEnd)).deprecated++;
  }

  vocabularyCount(): number {
    return this.vocabularies.size;
  }

  /** Writes every statistics_* row; `duplicateCodes` is the number of shared codes per vocabulary. */
  write(db: Database.Database, duplicateCodes: ReadonlyMap<string, number>): void {
    const vocabulary = db.prepare('INSERT INTO statistics_vocabulary VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    const depth = db.prepare('INSERT INTO statistics_depth VALUES (?, ?, ?)');
    const relationship = db.prepare('INSERT INTO statistics_relationship VALUES (?, ?, ?)');
    const mapping = db.prepare('INSERT INTO statistics_mapping VALUES (?, ?, ?, ?)');
    const language = db.prepare('INSERT INTO statistics_language VALUES (?, ?, ?, ?)');
    const period = db.prepare('INSERT INTO statistics_period VALUES (?, ?, ?, ?, ?)');
    db.transaction(() => {
      for (const [id, v] of this.vocabularies) {
        vocabulary.run(
          id,
          v.concepts,
          v.hierarchy,
          v.roots,
          v.leaves,
          v.orphaned,
          duplicateCodes.get(id) ?? 0,
          v.missingDescriptions,
          v.complete,
          v.consistent,
          v.mapped,
          v.withSynonyms,
          v.multilingual,
        );
        for (const [d, count] of v.depths) depth.run(id, d, count);
        for (const [r, count] of v.relationships) relationship.run(id, r, count);
        for (const [target, t] of v.targets) mapping.run(id, target, t.rows, t.concepts);
        for (const [languageId, l] of v.languages) language.run(id, languageId, l.synonyms, l.concepts);
        for (const [year, p] of v.years) period.run(id, year, p.added, p.modified, p.deprecated);
      }
    })();
  }
}
