/**
 * SteamID64 of an individual Steam account — one definition for sign-in, `ADMIN_STEAM_IDS`, the
 * dev identity provider and the shell commands. Individual accounts run from 76561197960265729
 * (account number 1) to 76561202255233023 (the last 32-bit account number); new accounts already
 * get ids starting 7656120…, so a `7656119` prefix check would lock them out.
 */
import { z } from 'zod';

export const STEAM_ID_MIN = 76561197960265729n;
export const STEAM_ID_MAX = 76561202255233023n;

/** What a person is told when an id is refused. */
export const STEAM_ID_RULE = `a SteamID64: 17 digits from ${STEAM_ID_MIN} to ${STEAM_ID_MAX}`;

/** True for the decimal SteamID64 of an individual account (exactly 17 digits, within the range). */
export function isSteamId64(value: string): boolean {
  if (!/^\d{17}$/.test(value)) return false;
  const id = BigInt(value);
  return id >= STEAM_ID_MIN && id <= STEAM_ID_MAX;
}

/** A zod string that is a SteamID64 of an individual account. */
export const steamId64 = z.string().refine(isSteamId64, { message: `must be ${STEAM_ID_RULE}` });

/**
 * The dev identity provider's demo accounts live in this block at the very top of the 7656119…
 * range, an id nobody types by chance; a typed id is never handed a demo account (see
 * apps/server/src/integrations/steam/dev-provider.ts).
 */
export const DEMO_STEAM_ID_MIN = 76561199999999000n;
export const DEMO_STEAM_ID_MAX = 76561199999999999n;

/** True for an id in the demo block. */
export function isDemoSteamId(value: string): boolean {
  if (!isSteamId64(value)) return false;
  const id = BigInt(value);
  return id >= DEMO_STEAM_ID_MIN && id <= DEMO_STEAM_ID_MAX;
}
