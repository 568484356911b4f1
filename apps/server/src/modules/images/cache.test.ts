import { describe, expect, it } from 'vitest';
import { ImageCache } from './cache';

const image = (hash: string, size: number) => ({ hash, contentType: 'image/png', bytes: Buffer.alloc(size) });

describe('ImageCache', () => {
  it('keeps images within its budget, dropping the least recently served first', () => {
    const cache = new ImageCache(100);
    cache.set(image('a', 25));
    cache.set(image('b', 25));
    cache.set(image('c', 25));
    expect(cache.get('a')?.hash).toBe('a'); // a is now the most recent
    cache.set(image('d', 25));
    cache.set(image('e', 25)); // over 100: b (least recent) goes
    expect(cache.get('b')).toBeNull();
    expect(['a', 'c', 'd', 'e'].map((h) => cache.get(h)?.hash)).toEqual(['a', 'c', 'd', 'e']);
    expect(cache.bytes).toBe(100);
  });

  it('does not keep an image larger than a quarter of the budget, nor one twice', () => {
    const cache = new ImageCache(100);
    cache.set(image('big', 26));
    expect(cache.get('big')).toBeNull();
    cache.set(image('a', 10));
    cache.set(image('a', 10));
    expect(cache.bytes).toBe(10);
  });
});
