/**
 * Authorization codes and access tokens of the Discord simulator: HMAC-signed, self-contained
 * (any process sharing SESSION_SECRET accepts them), short-lived; codes are single use.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

const claims = z.object({
  kind: z.enum(['code', 'token']),
  sub: z.string(),
  name: z.string(),
  redirectUri: z.string().optional(),
  exp: z.number(),
  nonce: z.string(),
});
export type TokenClaims = z.infer<typeof claims>;

export class SimulatorTokens {
  private readonly usedCodes = new Map<string, number>();

  constructor(private readonly key: Buffer) {}

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }

  issue(c: TokenClaims): string {
    const body = Buffer.from(JSON.stringify(c)).toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  read(token: string, kind: TokenClaims['kind'], nowMs: number): TokenClaims | null {
    const [body, sig] = token.split('.');
    if (!body || !sig) return null;
    const expected = Buffer.from(this.mac(body));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    let parsed;
    try {
      parsed = claims.safeParse(JSON.parse(Buffer.from(body, 'base64url').toString('utf8')));
    } catch {
      return null;
    }
    if (!parsed.success || parsed.data.kind !== kind || parsed.data.exp < nowMs) return null;
    return parsed.data;
  }

  /** Marks a code used; false when it was used before. */
  consumeCode(code: string, nowMs: number): boolean {
    for (const [c, exp] of this.usedCodes) if (exp < nowMs) this.usedCodes.delete(c);
    if (this.usedCodes.has(code)) return false;
    this.usedCodes.set(code, nowMs + 15 * 60 * 1000);
    return true;
  }
}
