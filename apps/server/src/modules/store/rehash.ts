/**
 * The one-time re-hash of store codes (docs/features/points-and-store.md):
 * codes uploaded before the uniqueness hash was taken over the normal form (`codeKeyOf`) carry an
 * HMAC of the code as typed (hash_version 1), so another spelling of such a code would be taken as
 * a new card. At start, once the code key is there, each of them is opened and its hash re-written
 * from the normal form (version 2).
 *
 * Two codes that turn out to be one card cannot both hold the hash (product_codes_code_unique):
 * the one kept is the sold one, else the earlier uploaded; the other keeps its row with its hash
 * marked (`…~dup~<id>`, which no HMAC spells). An unsold duplicate is withdrawn from sale for good
 * (withdrawn_at, never sold, its product's stock recounted); a sold one stays sold. Each is in the
 * audit log and the server's log.
 *
 * Under the migration lock, so processes starting together run it once; each code in its own
 * transaction with its row locked, so a second run (or a process that finds the work done) changes
 * nothing.
 */
import { and, asc, eq, gt, lt, ne, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, DbOrTx } from '../../db/client';
import { withMigrationLock } from '../../db/migrate';
import { productCodes, products } from '../../db/schema/store';
import { recordAudit, type Actor } from '../audit/service';
import { CODE_HASH_VERSION, masked, type CodeVault } from './codes';
import { codeVault } from './service';

type CodeRow = typeof productCodes.$inferSelect;

export interface RehashResult {
  /** Codes whose hash now is of their normal form (duplicates included). */
  rehashed: number;
  /** Unsold duplicates withdrawn from sale. */
  withdrawn: number;
  /** Sold duplicates (the card was sold twice before): kept sold, marked. */
  soldTwice: number;
  /** Codes the key does not open (another key sealed them): left as they were. */
  unreadable: number;
  /** Codes left at the old hash because the key is missing. */
  waiting: number;
}

const systemActor: Actor = { userId: null, label: 'system' };

/** A duplicate's hash: its card's hash, marked so the unique index keeps both rows ("~" is no base64url). */
export const duplicateHash = (hash: string, id: number) => `${hash}~dup~${id}`;

/** The kept one of two codes of one card: the sold one, else the earlier uploaded. */
const keeps = (a: CodeRow, b: CodeRow) =>
  (a.orderId !== null) !== (b.orderId !== null) ? a.orderId !== null : a.id < b.id;

function isUniqueHashRace(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (code === '23505' && constraint === 'product_codes_code_unique') return true;
  }
  return false;
}

async function recountStock(tx: DbOrTx, productId: number): Promise<void> {
  await tx
    .update(products)
    .set({
      stock: sql<number>`(SELECT count(*) FROM product_codes c
        WHERE c.product_id = ${productId} AND c.order_id IS NULL AND c.withdrawn_at IS NULL)::int`,
    })
    .where(and(eq(products.id, productId), eq(products.delivery, 'code')));
}

type Step = 'done' | 'rehashed' | 'withdrawn' | 'sold_twice' | 'unreadable';

/** One old-hash code, in its own transaction. */
async function rehashOne(database: Database, vault: CodeVault, id: number, log: FastifyBaseLogger): Promise<Step> {
  return database.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(productCodes)
      .where(and(eq(productCodes.id, id), lt(productCodes.hashVersion, CODE_HASH_VERSION)))
      .for('update');
    if (!row) return 'done';
    const code = vault.open(row.sealed);
    if (code === null) return 'unreadable';
    const hash = vault.hash(code);
    const [holder] = await tx
      .select()
      .from(productCodes)
      .where(and(eq(productCodes.codeHash, hash), ne(productCodes.id, row.id)))
      .for('update');
    if (!holder) {
      await tx
        .update(productCodes)
        .set({ codeHash: hash, hashVersion: CODE_HASH_VERSION })
        .where(eq(productCodes.id, row.id));
      return 'rehashed';
    }
    const [kept, dup] = keeps(row, holder) ? [row, holder] : [holder, row];
    const now = new Date();
    // The duplicate first: when it is the holder, this frees the hash for the one kept.
    await tx
      .update(productCodes)
      .set({
        codeHash: duplicateHash(hash, dup.id),
        hashVersion: CODE_HASH_VERSION,
        ...(dup.orderId === null ? { withdrawnAt: dup.withdrawnAt ?? now } : {}),
      })
      .where(eq(productCodes.id, dup.id));
    if (kept.id === row.id) {
      await tx
        .update(productCodes)
        .set({ codeHash: hash, hashVersion: CODE_HASH_VERSION })
        .where(eq(productCodes.id, row.id));
    }
    const withdrawn = dup.orderId === null;
    if (withdrawn) await recountStock(tx, dup.productId);
    const detail = {
      codeId: dup.id,
      masked: masked(dup.tail),
      productId: dup.productId,
      keptCodeId: kept.id,
      keptProductId: kept.productId,
      keptSold: kept.orderId !== null,
      ...(withdrawn ? {} : { orderId: dup.orderId }),
    };
    await recordAudit(tx, systemActor, {
      action: withdrawn ? 'product.code_withdrawn' : 'product.code_sold_twice',
      targetType: 'product',
      targetId: String(dup.productId),
      after: detail,
    });
    log.warn(
      detail,
      withdrawn
        ? `store code ${detail.masked} (product ${dup.productId}) is the same card as code ${kept.id}: withdrawn from sale`
        : `store code ${detail.masked} (product ${dup.productId}) is the same card as code ${kept.id}, and both were sold`,
    );
    return withdrawn ? 'withdrawn' : 'sold_twice';
  });
}

/**
 * Re-hashes every code still hashed as typed (see the header). Without a key it waits: it logs how
 * many codes wait and changes nothing, and the next start with CODE_ENCRYPTION_KEY set does it.
 */
export async function rehashStoreCodes(
  database: Database,
  key: string | null,
  log: FastifyBaseLogger,
): Promise<RehashResult> {
  return withMigrationLock(database, async () => {
    const result: RehashResult = { rehashed: 0, withdrawn: 0, soldTwice: 0, unreadable: 0, waiting: 0 };
    const vault = codeVault(key);
    if (!vault) {
      const [row] = await database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(productCodes)
        .where(lt(productCodes.hashVersion, CODE_HASH_VERSION));
      result.waiting = row?.n ?? 0;
      if (result.waiting > 0) {
        log.warn(
          { codes: result.waiting },
          `${result.waiting} store codes are still hashed as typed: they are re-hashed at the first start with CODE_ENCRYPTION_KEY set`,
        );
      }
      return result;
    }
    let after = 0;
    for (;;) {
      const batch = await database.db
        .select({ id: productCodes.id })
        .from(productCodes)
        .where(and(lt(productCodes.hashVersion, CODE_HASH_VERSION), gt(productCodes.id, after)))
        .orderBy(asc(productCodes.id))
        .limit(500);
      if (batch.length === 0) break;
      for (const { id } of batch) {
        after = id;
        let step: Step | null = null;
        // A process still running the older version may upload the same card meanwhile: the
        // unique hash refuses one of the two writes; the code is then judged again.
        for (let attempt = 0; step === null; attempt++) {
          try {
            step = await rehashOne(database, vault, id, log);
          } catch (err) {
            if (attempt >= 2 || !isUniqueHashRace(err)) throw err;
          }
        }
        if (step === 'unreadable') result.unreadable++;
        else if (step !== 'done') result.rehashed++;
        if (step === 'withdrawn') result.withdrawn++;
        if (step === 'sold_twice') result.soldTwice++;
      }
    }
    if (result.unreadable > 0) {
      log.error(
        { codes: result.unreadable },
        `${result.unreadable} store codes do not open with CODE_ENCRYPTION_KEY (sealed under another key): left hashed as typed`,
      );
    }
    if (result.rehashed > 0) log.info({ ...result }, `store codes re-hashed in their normal form: ${result.rehashed}`);
    return result;
  });
}
