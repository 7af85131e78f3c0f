/**
 * Concept-set expressions for the benchmarks, picked from a loaded store: typical phenotypes (≈20 SNOMED items of
 * modest hierarchies, some mapped, an exclusion inside) and sets of 20 of the largest hierarchies with descendants.
 */
import type Database from 'better-sqlite3';

export interface BenchItem {
  concept: { CONCEPT_ID: number };
  isExcluded: boolean;
  includeDescendants: boolean;
  includeMapped: boolean;
}

const item = (id: number, flags: Partial<Omit<BenchItem, 'concept'>> = {}): BenchItem => ({
  concept: { CONCEPT_ID: id },
  isExcluded: flags.isExcluded ?? false,
  includeDescendants: flags.includeDescendants ?? false,
  includeMapped: flags.includeMapped ?? false,
});

/** `count` phenotype-like expressions of 20 items whose hierarchies hold 5–250 descendants each. */
export function phenotypeExpressions(db: Database.Database, random: () => number, count: number): Array<{ items: BenchItem[] }> {
  const candidates = db
    .prepare(
      `SELECT concept_id FROM concept WHERE vocabulary_id = 'SNOMED' AND standard_concept = 'S' AND invalid_reason IS NULL
        AND domain_id = 'Condition' AND concept_id % 97 = 0 LIMIT 20000`,
    )
    .pluck()
    .all() as number[];
  const size = db.prepare('SELECT count(*) FROM concept_ancestor WHERE ancestor_concept_id = ?').pluck();
  const child = db.prepare('SELECT descendant_concept_id FROM concept_ancestor WHERE ancestor_concept_id = ? AND min_levels_of_separation = 1 LIMIT 1').pluck();
  const heads: number[] = [];
  for (const id of candidates) {
    const n = size.get(id) as number;
    if (n > 5 && n <= 250) heads.push(id);
    if (heads.length >= 2000) break;
  }
  if (heads.length < 20) throw new Error(`too few SNOMED Condition hierarchies of 5–250 concepts (${heads.length})`);
  const pick = () => heads[Math.floor(random() * heads.length)]!;
  return Array.from({ length: count }, () => {
    const items: BenchItem[] = [];
    for (let i = 0; i < 19; i++) items.push(item(pick(), { includeDescendants: random() < 0.85, includeMapped: random() < 0.3 }));
    const inside = child.get(items[0]!.concept.CONCEPT_ID) as number | undefined;
    items.push(item(inside ?? pick(), { isExcluded: true, includeDescendants: true }));
    return { items };
  });
}

/** An upper bound of the resolved ids of a large-hierarchy expression, under the ids_only cap (MAX_IDS_ONLY, 500,000). */
const LARGE_SET_BUDGET = 450_000;

/**
 * `count` expressions of 20 items with descendants, drawn at random from the 200 ancestors with the most valid
 * descendants while the sum of their descendant counts stays within LARGE_SET_BUDGET (so no answer is over the
 * ids_only cap): at scale 0.1 they are among the 40 largest, at full size the largest ones a set can hold 20 of.
 */
export function largeHierarchyExpressions(db: Database.Database, random: () => number, count: number): Array<{ items: BenchItem[] }> {
  const largest = db
    .prepare(
      `SELECT ancestor_concept_id AS id, sum(descendant_count) AS n FROM hierarchy_descendant_facet WHERE is_valid = 1
        GROUP BY 1 ORDER BY n DESC LIMIT 200`,
    )
    .all() as Array<{ id: number; n: number }>;
  const fitting = largest.filter((h) => h.n <= LARGE_SET_BUDGET / 20);
  const pool = fitting.length >= 40 ? fitting.slice(0, 40) : largest.slice(-40);
  return Array.from({ length: count }, () => {
    const left = [...pool];
    const items: BenchItem[] = [];
    let budget = LARGE_SET_BUDGET;
    while (items.length < 20 && left.length) {
      const [h] = left.splice(Math.floor(random() * left.length), 1);
      if (h!.n > budget) continue;
      budget -= h!.n;
      items.push(item(h!.id, { includeDescendants: true }));
    }
    return { items };
  });
}
