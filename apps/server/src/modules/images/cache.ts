/**
 * The images this process served last, up to a byte budget (least recently served dropped first).
 * An image's path names its content, so a kept copy is never stale: a logo shown to every new
 * visitor is read from the database once per process, not once per visitor.
 */
export interface CachedImage {
  hash: string;
  contentType: string;
  bytes: Buffer;
}

export class ImageCache {
  private readonly entries = new Map<string, CachedImage>();
  private size = 0;

  constructor(private readonly budgetBytes: number) {}

  get(hash: string): CachedImage | null {
    const entry = this.entries.get(hash);
    if (!entry) return null;
    // Most recently served last: Map keeps insertion order.
    this.entries.delete(hash);
    this.entries.set(hash, entry);
    return entry;
  }

  /** Keeps `image` unless it alone would take more than a quarter of the budget. */
  set(image: CachedImage): void {
    if (this.entries.has(image.hash) || image.bytes.length > this.budgetBytes / 4) return;
    this.entries.set(image.hash, image);
    this.size += image.bytes.length;
    for (const [hash, oldest] of this.entries) {
      if (this.size <= this.budgetBytes) break;
      this.entries.delete(hash);
      this.size -= oldest.bytes.length;
    }
  }

  /** Bytes kept now. */
  get bytes(): number {
    return this.size;
  }
}
