/**
 * Instant code delivery (docs/features/points-and-store.md): a product's pool of codes. Each code is sealed at rest
 * (AES-256-GCM, lib/secret-box.ts) under CODE_ENCRYPTION_KEY, with an HMAC of it under the same
 * key for uniqueness (a duplicate is found without opening a single code) and a masked tail, the
 * only part admins ever see again. Only the buyer's own order opens its code.
 */
import { createHmac } from 'node:crypto';
import { and, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { codeKeyOf, type CodePool } from '@kickback/common/http/store';
import type { DbOrTx } from '../../db/client';
import { productCodes } from '../../db/schema/store';
import { SecretBox } from '../../lib/secret-box';

/**
 * What a code's hash is taken over (product_codes.hash_version): 1 the code as typed (codes uploaded
 * before 1180, re-hashed once at start by ./rehash.ts), 2 its normal form. New uploads write this.
 */
export const CODE_HASH_VERSION = 2;

export class CodeVault {
  private readonly box: SecretBox;
  private readonly hashKey: Buffer;

  constructor(key: string) {
    this.box = new SecretBox(key);
    this.hashKey = createHmac('sha256', key).update('kickback-code-hash').digest();
  }

  seal(code: string): string {
    return this.box.seal(code);
  }

  open(sealed: string): string | null {
    return this.box.open(sealed);
  }

  /** The uniqueness hash of a code, over its normal form (`codeKeyOf`): one card, one hash. */
  hash(code: string): string {
    return createHmac('sha256', this.hashKey).update(codeKeyOf(code), 'utf8').digest('base64url');
  }
}

/** The end admins may see: at most the last 4 characters and never more than a third of the code. */
export function maskedTail(code: string): string {
  return code.slice(code.length - Math.min(4, Math.floor(code.length / 3)));
}

export function masked(tail: string): string {
  return `••••${tail}`;
}

/** How many codes the pool holds unsold (for sale), sold, and withdrawn (unsold duplicates, ./rehash.ts). */
export async function poolCounts(
  db: DbOrTx,
  productId: number,
): Promise<{ available: number; sold: number; withdrawn: number }> {
  const [row] = await db
    .select({
      available:
        sql<number>`count(*) FILTER (WHERE ${productCodes.orderId} IS NULL AND ${productCodes.withdrawnAt} IS NULL)`.mapWith(
          Number,
        ),
      sold: sql<number>`count(*) FILTER (WHERE ${productCodes.orderId} IS NOT NULL)`.mapWith(Number),
      withdrawn:
        sql<number>`count(*) FILTER (WHERE ${productCodes.orderId} IS NULL AND ${productCodes.withdrawnAt} IS NOT NULL)`.mapWith(
          Number,
        ),
    })
    .from(productCodes)
    .where(eq(productCodes.productId, productId));
  return { available: row?.available ?? 0, sold: row?.sold ?? 0, withdrawn: row?.withdrawn ?? 0 };
}

export async function unsoldCount(db: DbOrTx, productId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(productCodes)
    .where(and(eq(productCodes.productId, productId), isNull(productCodes.orderId), isNull(productCodes.withdrawnAt)));
  return row?.n ?? 0;
}

/** The pool for Admin → Products: counts and the newest 200 codes masked (a withdrawn one says so). */
export async function poolView(db: DbOrTx, productId: number): Promise<CodePool> {
  const [counts, rows] = await Promise.all([
    poolCounts(db, productId),
    db
      .select({
        id: productCodes.id,
        tail: productCodes.tail,
        orderId: productCodes.orderId,
        withdrawnAt: productCodes.withdrawnAt,
        createdAt: productCodes.createdAt,
      })
      .from(productCodes)
      .where(eq(productCodes.productId, productId))
      .orderBy(desc(productCodes.id))
      .limit(200),
  ]);
  return {
    ...counts,
    codes: rows.map((r) => ({
      id: r.id,
      masked: masked(r.tail),
      sold: r.orderId !== null,
      withdrawn: r.orderId === null && r.withdrawnAt !== null,
      uploadedAt: r.createdAt.toISOString(),
    })),
  };
}

/** Why an uploaded code was not added. */
export type CodeRefusal = 'this_pool' | 'other_pool';

export const refusalText: Record<CodeRefusal, string> = {
  this_pool: "already in this product's pool",
  other_pool: "already in another product's pool",
};

/**
 * The uploaded codes (plain text) already in a pool, this product's or any other's, sold or not,
 * each with where it is. A code is unique across every pool (product_codes_code_unique), so the
 * hash finds it wherever it was uploaded.
 */
export async function existingCodes(
  db: DbOrTx,
  vault: CodeVault,
  productId: number,
  codes: string[],
): Promise<Map<string, CodeRefusal>> {
  const byHash = new Map(codes.map((c) => [vault.hash(c), c]));
  const found = new Map<string, CodeRefusal>();
  const hashes = [...byHash.keys()];
  for (let i = 0; i < hashes.length; i += 1000) {
    const rows = await db
      .select({ h: productCodes.codeHash, productId: productCodes.productId })
      .from(productCodes)
      .where(inArray(productCodes.codeHash, hashes.slice(i, i + 1000)));
    for (const r of rows) found.set(byHash.get(r.h)!, r.productId === productId ? 'this_pool' : 'other_pool');
  }
  return found;
}

/** "Refused: A (why), B (why)" in the order of the upload, at most 20 named. */
export function refusedText(codes: string[], refused: Map<string, CodeRefusal>): string {
  const named = codes.filter((c) => refused.has(c));
  const list = named
    .slice(0, 20)
    .map((c) => `${c} (${refusalText[refused.get(c)!]})`)
    .join(', ');
  return `Refused: ${list}${named.length > 20 ? ` and ${named.length - 20} more` : ''}`;
}
