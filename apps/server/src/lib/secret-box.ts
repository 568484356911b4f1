/**
 * Secrets at rest (the Kick bot's tokens): AES-256-GCM with a random 96-bit nonce, stored as
 * `v1.<nonce>.<tag>.<ciphertext>` in base64url. A wrong key or a changed byte fails to open
 * rather than yielding garbage.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

export class SecretBox {
  private readonly key: Buffer;

  /** `key` is any secret of at least 32 characters; it is hashed to the 256-bit AES key. */
  constructor(key: string | Buffer) {
    this.key = createHash('sha256').update(key).digest();
  }

  seal(plain: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', nonce, cipher.getAuthTag(), body]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  /** The plain text, or null when the box was sealed with another key or tampered with. */
  open(sealed: string): string | null {
    const [version, nonce, tag, body] = sealed.split('.');
    if (version !== 'v1' || !nonce || !tag || body === undefined) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(nonce, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}
