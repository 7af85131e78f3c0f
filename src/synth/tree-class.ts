/**
 * Builds the valid core of a hierarchical class: plans the tree shape, then creates the nodes level
 * by level, naming each one from its parent with the class's name model and linking it to its
 * parents with `Is a` (or another child-side relationship such as `Contained in panel`).
 */
import type { GenContext, Range } from './context.js';
import { planTree, type TreeOptions } from './hierarchy.js';
import type { CoreClassId } from './metadata.js';
import type { NameModel, NodeName } from './names-clinical.js';
import type { StdFlag } from './plan.js';
import type { Rng } from './random.js';

export interface TreeClassOptions extends Omit<TreeOptions, 'count'> {
  vocab: string;
  cls: CoreClassId;
  count: number;
  std: StdFlag;
  model: NameModel;
  code: () => string;
  /** Domain of a top-level node (level 0 or 1) from its name; children inherit their parent's. */
  domainOf: (top: NodeName, level: number) => string;
  /** Child-side relationship to the parents. */
  rel?: string;
  /** Extra parents outside the class (indices of older concepts), e.g. SNOMED parents of ICDO. */
  externalParents?: (rng: Rng, node: NodeName, level: number) => number[];
  /** Called after each node is created (to add more links). */
  after?: (rng: Rng, index: number, level: number) => void;
  /** Retries before a duplicate name is accepted. */
  uniqueTries?: number;
  recentShare?: number;
}

export function buildTreeClass(ctx: GenContext, o: TreeClassOptions): Range {
  const rng = ctx.rng(`${o.vocab}/${o.cls}/tree`);
  const shape = planTree(rng, { ...o });
  const t = ctx.table;
  const base = ctx.next;
  const rel = o.rel ?? 'Is a';
  const seen = new Set<string>();
  const tries = o.uniqueTries ?? 6;
  const levelCounter: number[] = [];
  for (let k = 0; k < shape.count; k++) {
    const level = shape.level[k]!;
    const p = shape.parent[k]!;
    let node: NodeName;
    let domain: string;
    if (level <= 1) {
      const n = levelCounter[level] ?? 0;
      levelCounter[level] = n + 1;
      node = o.model.top(rng, level, n);
      domain = o.domainOf(node, level);
    } else {
      const pg = base + p;
      const parent: NodeName = { name: t.name(pg), site: t.p1[pg]!, head: t.p2[pg]! };
      node = o.model.child(rng, parent, level);
      for (let r = 0; r < tries && seen.has(node.name); r++) node = o.model.child(rng, parent, level);
      domain = ctx.domainName(pg);
    }
    seen.add(node.name);
    const i = ctx.add(o.vocab, { cls: o.cls, domain, std: o.std, code: o.code(), name: node.name, p1: node.site, p2: node.head, start: ctx.startDate(o.recentShare ?? 0.3) });
    if (p >= 0) ctx.link(i, base + p, rel);
    for (let e = shape.extraStart[k]!; e < shape.extraStart[k + 1]!; e++) ctx.link(i, base + shape.extra[e]!, rel);
    if (o.externalParents) {
      for (const ext of o.externalParents(rng, node, level)) ctx.link(i, ext, rel);
    }
    o.after?.(rng, i, level);
  }
  return { start: base, end: ctx.next };
}
