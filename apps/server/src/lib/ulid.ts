import { randomBytes } from 'node:crypto';

const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'; // Crockford base32

/** A ULID (48-bit time + 80 random bits, 26 characters), the id format Kick gives its events. */
export function ulid(at: Date = new Date()): string {
  let time = at.getTime();
  let head = '';
  for (let i = 0; i < 10; i++) {
    head = alphabet[time % 32] + head;
    time = Math.floor(time / 32);
  }
  const bytes = randomBytes(16);
  let tail = '';
  for (let i = 0; i < 16; i++) tail += alphabet[(bytes[i] ?? 0) % 32];
  return head + tail;
}
