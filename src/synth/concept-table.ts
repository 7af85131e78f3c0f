/**
 * The generator's in-memory model: one row per concept in compact typed arrays (about 60 bytes per concept), plus
 * the links each concept was created with (parents, bases, mapping targets) in a CSR layout; relationship,
 * ancestor and strength rows are never held, the writers derive them while streaming.
 */

export const STD_NONE = 0;
export const STD_S = 1;
export const STD_C = 2;
export const INV_NONE = 0;
export const INV_D = 1;
export const INV_U = 2;

/** Growable UTF-8 text storage indexed by concept index (appends must come in index order). */
export class TextArena {
  private buf: Buffer;
  private used = 0;
  readonly offsets: Int32Array;
  private filled = 0;

  constructor(capacity: number, initialBytes: number) {
    this.buf = Buffer.allocUnsafe(Math.max(1024, initialBytes));
    this.offsets = new Int32Array(capacity + 1);
  }

  push(index: number, text: string): void {
    if (index !== this.filled) throw new Error(`TextArena: out-of-order push ${index} (expected ${this.filled})`);
    const need = Buffer.byteLength(text, 'utf8');
    if (this.used + need > this.buf.length) {
      const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.used + need + 1024));
      this.buf.copy(bigger, 0, 0, this.used);
      this.buf = bigger;
    }
    this.buf.write(text, this.used, 'utf8');
    this.used += need;
    this.filled = index + 1;
    this.offsets[index + 1] = this.used;
  }

  get(index: number): string {
    return this.buf.toString('utf8', this.offsets[index]!, this.offsets[index + 1]!);
  }

  byteLength(index: number): number {
    return this.offsets[index + 1]! - this.offsets[index]!;
  }

  get bytes(): number {
    return this.used;
  }
}

/** Defining links in CSR form: links of concept i are [start[i], start[i+1]). */
export class LinkList {
  readonly start: Int32Array;
  target: Int32Array;
  rel: Uint16Array;
  count = 0;

  constructor(capacity: number, initialLinks: number) {
    this.start = new Int32Array(capacity + 1);
    this.target = new Int32Array(Math.max(1024, initialLinks));
    this.rel = new Uint16Array(this.target.length);
  }

  push(target: number, rel: number): void {
    if (this.count === this.target.length) {
      const size = Math.ceil(this.target.length * 1.5);
      const t = new Int32Array(size);
      t.set(this.target);
      const r = new Uint16Array(size);
      r.set(this.rel);
      this.target = t;
      this.rel = r;
    }
    this.target[this.count] = target;
    this.rel[this.count] = rel;
    this.count++;
  }
}

export interface NewConcept {
  vocab: number;
  cls: number;
  domain: number;
  std: number;
  invalid: number;
  code: string;
  name: string;
  start: number;
  end: number;
  /** Family-specific payload (e.g. ingredient index, strength code, site index). */
  p1?: number;
  p2?: number;
}

export class ConceptTable {
  size = 0;
  readonly id: Int32Array;
  readonly vocab: Uint8Array;
  readonly cls: Uint16Array;
  readonly domain: Uint8Array;
  readonly std: Uint8Array;
  readonly invalid: Uint8Array;
  readonly start: Int32Array;
  readonly end: Int32Array;
  readonly p1: Int32Array;
  readonly p2: Int32Array;
  readonly names: TextArena;
  readonly codes: TextArena;
  readonly links: LinkList;

  constructor(readonly capacity: number) {
    this.id = new Int32Array(capacity);
    this.vocab = new Uint8Array(capacity);
    this.cls = new Uint16Array(capacity);
    this.domain = new Uint8Array(capacity);
    this.std = new Uint8Array(capacity);
    this.invalid = new Uint8Array(capacity);
    this.start = new Int32Array(capacity);
    this.end = new Int32Array(capacity);
    this.p1 = new Int32Array(capacity);
    this.p2 = new Int32Array(capacity);
    this.names = new TextArena(capacity, capacity * 56);
    this.codes = new TextArena(capacity, capacity * 11);
    this.links = new LinkList(capacity, capacity * 3);
  }

  /** Appends a concept with the given concept_id; returns its index. */
  add(conceptId: number, c: NewConcept): number {
    const i = this.size;
    if (i >= this.capacity) throw new Error(`ConceptTable: capacity ${this.capacity} exceeded`);
    this.id[i] = conceptId;
    this.vocab[i] = c.vocab;
    this.cls[i] = c.cls;
    this.domain[i] = c.domain;
    this.std[i] = c.std;
    this.invalid[i] = c.invalid;
    this.start[i] = c.start;
    this.end[i] = c.end;
    this.p1[i] = c.p1 ?? 0;
    this.p2[i] = c.p2 ?? 0;
    this.names.push(i, c.name);
    this.codes.push(i, c.code);
    this.links.start[i] = this.links.count;
    this.links.start[i + 1] = this.links.count;
    this.size = i + 1;
    return i;
  }

  /** Adds a defining link to the most recently added concept. */
  link(from: number, target: number, rel: number): void {
    if (from !== this.size - 1) throw new Error(`ConceptTable.link: links must be added to the newest concept (${from} vs ${this.size - 1})`);
    if (target >= from) throw new Error(`ConceptTable.link: target ${target} is not older than ${from}`);
    this.links.push(target, rel);
    this.links.start[from + 1] = this.links.count;
  }

  name(i: number): string {
    return this.names.get(i);
  }

  code(i: number): string {
    return this.codes.get(i);
  }

  /** Valid and standard or classification: the concepts that take part in CONCEPT_ANCESTOR. */
  inHierarchy(i: number): boolean {
    return this.invalid[i] === INV_NONE && this.std[i] !== STD_NONE;
  }

  /** First link target of concept i with the given relationship, or -1. */
  firstLink(i: number, rel: number): number {
    const { start, target, rel: rels } = this.links;
    for (let k = start[i]!; k < start[i + 1]!; k++) if (rels[k] === rel) return target[k]!;
    return -1;
  }
}

/**
 * Hands out concept_ids per vocabulary: ascending from the vocabulary's base, with small random
 * gaps like the real id ranges, skipping ids reserved for well-known concepts.
 */
export class IdAllocator {
  private next: number;

  constructor(
    base: number,
    private readonly limit: number,
    private readonly gapProbability: number,
    private readonly reserved: ReadonlySet<number>,
  ) {
    this.next = base;
  }

  take(rand: number): number {
    let id = this.next;
    while (this.reserved.has(id)) id++;
    if (id >= this.limit) throw new Error(`IdAllocator: range exhausted at ${id}`);
    this.next = id + 1 + (rand < this.gapProbability ? 1 + Math.floor((rand / this.gapProbability) * 2) : 0);
    return id;
  }
}
