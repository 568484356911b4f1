/**
 * Promises shared per key for a short while, for the reads a link drop's visitors all make at once
 * (docs/architecture.md, the live-game kit's `fixedVisibilityMs` and `presentCache`): the first
 * read's promise answers the others until `ms` have passed or the key's `tag` changed. A promise
 * that rejects, or whose value `keep` refuses, is forgotten as soon as it settles. Past `max` keys,
 * the expired ones are dropped before a new one is added.
 */
export class RecentPromises<V> {
  private readonly entries = new Map<string, { tag: string; until: number; value: Promise<V> }>();

  constructor(
    private readonly ms: number,
    private readonly keep: (value: V) => boolean = () => true,
    private readonly max = 1000,
  ) {}

  get(key: string, tag: string, make: () => Promise<V>): Promise<V> {
    const now = performance.now();
    const hit = this.entries.get(key);
    if (hit && hit.tag === tag && hit.until > now) return hit.value;
    if (this.entries.size >= this.max) {
      for (const [k, e] of this.entries) if (e.until <= now) this.entries.delete(k);
    }
    const entry = { tag, until: now + this.ms, value: make() };
    this.entries.set(key, entry);
    const forget = () => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    };
    entry.value.then((value) => {
      if (!this.keep(value)) forget();
    }, forget);
    return entry.value;
  }
}
