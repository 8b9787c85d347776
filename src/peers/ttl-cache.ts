// A small bounded cache whose entries expire after a fixed time: the gateway's brief memory of
// other users' public profiles (peers.ts). Oldest entries go first when it is full.
//
// Entries are kept by space (what they are: 'profile', 'online', ...) and key (whose: an ID's
// text), one map per space: a look-up hashes two strings that already exist (a literal, an ID's
// kept text) rather than a key text concatenated on every read.

interface Entry<V> {
  readonly value: V;
  readonly expires: number;
  /** Insertion order across all spaces. */
  readonly seq: number;
}

export class TtlCache<V> {
  private readonly spaces = new Map<string, Map<string, Entry<V>>>();
  private count = 0;
  private seq = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(space: string, key: string): V | undefined {
    const entries = this.spaces.get(space);
    const entry = entries?.get(key);
    if (!entry) return undefined;
    if (entry.expires <= this.now()) {
      entries!.delete(key);
      this.count--;
      return undefined;
    }
    return entry.value;
  }

  set(space: string, key: string, value: V): void {
    let entries = this.spaces.get(space);
    if (!entries) this.spaces.set(space, (entries = new Map()));
    else if (entries.delete(key)) this.count--;
    while (this.count >= this.maxEntries && this.dropOldest()) {
      // Until there is room.
    }
    entries.set(key, { value, expires: this.now() + this.ttlMs, seq: this.seq++ });
    this.count++;
  }

  delete(space: string, key: string): void {
    if (this.spaces.get(space)?.delete(key)) this.count--;
  }

  get size(): number {
    return this.count;
  }

  /** Drops the oldest entry: each space's first is its oldest (a Map keeps insertion order). */
  private dropOldest(): boolean {
    let from: Map<string, Entry<V>> | undefined;
    let oldest: [string, Entry<V>] | undefined;
    for (const entries of this.spaces.values()) {
      const first = entries.entries().next().value;
      if (first && (!oldest || first[1].seq < oldest[1].seq)) {
        from = entries;
        oldest = first;
      }
    }
    if (!from || !oldest) return false;
    from.delete(oldest[0]);
    this.count--;
    return true;
  }
}
