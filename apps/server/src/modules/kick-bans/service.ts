/**
 * Kick bans, for the other modules (docs/features/kick-events-and-bans.md). `isBanned` is the exact
 * check (inside a transaction: bets, support rewards); `app.kickBans.banOf` the in-memory one the
 * chat gates use on every message; `activeBanSql` the condition for set-wise statements.
 */
import type { BanView } from './bans';

export { activeBanSql, bansInForce, isBanned, liftBan, type BanView, type Who } from './bans';

export interface KickBansService {
  /** The ban in force on this Kick account now (at most a few seconds stale across processes), or null. */
  banOf(kickUserId: string): Promise<BanView | null>;
  /** A ban was lifted or recorded by this process (call after commit). */
  changed(): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    kickBans: KickBansService;
  }
}
