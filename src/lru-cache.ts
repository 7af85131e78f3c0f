/**
 * A bounded map that forgets its least recently used entry when full (the caches of the search and store layers).
 * Every cache is bounded by its number of entries and, where entries vary in size, by an estimate of their bytes
 * (`maxBytes` with `sizeOf`): a cache of word expansions or full-text expressions holds a few bytes for a rare word
 * and hundreds of kilobytes for a common word part, so an entry count alone bounds nothing. The bounds of each cache
 * are listed in docs/performance.md ("What holds the serving memory").
 */
export interface ByteBound<V> {
  /** Most estimated bytes the entries may hold together; least recently used entries go first beyond it. */
  maxBytes: number;
  /** Estimated bytes of one entry (its key included); an entry estimated above maxBytes is not kept. */
  sizeOf: (value: V, key: string) => number;
}

export class LruCache<V> {
  private readonly map = new Map<string, { value: V; bytes: number }>();
  private heldBytes = 0;

  constructor(
    private readonly capacity: number,
    private readonly bound?: ByteBound<V>,
  ) {}

  get(key: string): V | undefined {
    const entry = this.map.get(key);
    if (entry === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V): void {
    this.delete(key);
    const bytes = this.bound ? this.bound.sizeOf(value, key) : 0;
    if (this.bound && bytes > this.bound.maxBytes) return;
    this.map.set(key, { value, bytes });
    this.heldBytes += bytes;
    while (this.map.size > this.capacity || (this.bound && this.heldBytes > this.bound.maxBytes)) {
      this.delete(this.map.keys().next().value as string);
    }
  }

  /** Estimated bytes held (0 without a byte bound). */
  get bytes(): number {
    return this.heldBytes;
  }

  get size(): number {
    return this.map.size;
  }

  clear(): void {
    this.map.clear();
    this.heldBytes = 0;
  }

  private delete(key: string): void {
    const entry = this.map.get(key);
    if (entry === undefined) return;
    this.map.delete(key);
    this.heldBytes -= entry.bytes;
  }
}

/** Estimated bytes of a string in V8 (two per character at most, plus the object). */
export function stringBytes(s: string): number {
  return 16 + 2 * s.length;
}
