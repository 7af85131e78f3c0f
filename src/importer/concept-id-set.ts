/**
 * The set of concept ids present in CONCEPT, used to spot rows of other tables that point at
 * missing concepts while they stream by. A chunked bitmap: 4.9M ids in the 0–2^31 range cost a few
 * MB (one 8 KiB chunk per 65,536-id block that holds any id) instead of ~200 MB for a Set.
 */
const CHUNK_BITS = 16;
const WORDS_PER_CHUNK = (1 << CHUNK_BITS) / 32;

export class ConceptIdSet {
  private readonly chunks = new Map<number, Uint32Array>();
  /** Ids outside 0..2^32-1 (never seen in Athena data, but possible in local extensions). */
  private readonly outliers = new Set<number>();
  private entries = 0;

  add(id: number): void {
    if (id < 0 || id > 0xffffffff) {
      if (!this.outliers.has(id)) this.entries++;
      this.outliers.add(id);
      return;
    }
    const key = id >>> CHUNK_BITS;
    let chunk = this.chunks.get(key);
    if (!chunk) {
      chunk = new Uint32Array(WORDS_PER_CHUNK);
      this.chunks.set(key, chunk);
    }
    const offset = id & ((1 << CHUNK_BITS) - 1);
    const mask = 1 << (offset & 31);
    const word = offset >>> 5;
    if ((chunk[word]! & mask) === 0) this.entries++;
    chunk[word] = chunk[word]! | mask;
  }

  has(id: number): boolean {
    if (id < 0 || id > 0xffffffff) return this.outliers.has(id);
    const chunk = this.chunks.get(id >>> CHUNK_BITS);
    if (!chunk) return false;
    const offset = id & ((1 << CHUNK_BITS) - 1);
    return (chunk[offset >>> 5]! & (1 << (offset & 31))) !== 0;
  }

  get size(): number {
    return this.entries;
  }
}
