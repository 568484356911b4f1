/**
 * The slot catalogue the calls are matched against (docs/features/slot-calls.md#the-catalogue):
 * the slots shipped in packages/common plus those an admin added (`slot_catalogue`). The matcher
 * is rebuilt only when the additions change (their count and newest id).
 */
import { desc, sql } from 'drizzle-orm';
import { slotCatalogue as shipped, slotProviders } from '@kickback/common/slot-calls/catalogue';
import { slotKey, slotMatcher, type NamedSlot, type SlotMatch } from '@kickback/common/slot-calls/match';
import type { DbOrTx } from '../../db/client';
import { slotCatalogue } from '../../db/schema/slot-calls';

export type Matcher = (typed: string) => SlotMatch<NamedSlot>;

const shippedKeys = new Set(shipped.map((s) => slotKey(s.name)));
export const providerKeys = new Set(slotProviders.map(slotKey));

let cached: { stamp: string; match: Matcher } | null = null;

export async function addedSlots(db: DbOrTx) {
  return db.select().from(slotCatalogue).orderBy(desc(slotCatalogue.id));
}

/** The matcher over the shipped and added slots, as of now. */
export async function currentMatcher(db: DbOrTx): Promise<Matcher> {
  const [stamp] = await db
    .select({ n: sql<number>`count(*)::int`, max: sql<number>`COALESCE(max(${slotCatalogue.id}), 0)::int` })
    .from(slotCatalogue);
  const key = `${stamp?.n ?? 0}:${stamp?.max ?? 0}`;
  if (cached?.stamp === key) return cached.match;
  const added = await addedSlots(db);
  const match = slotMatcher<NamedSlot>([...shipped, ...added.map((a) => ({ name: a.name, provider: a.provider }))]);
  cached = { stamp: key, match };
  return match;
}

/** Whether a slot with this name's key is shipped (an addition with the same key is refused). */
export const isShipped = (name: string) => shippedKeys.has(slotKey(name));
