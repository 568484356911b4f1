/** Helpers the partner simulators share: key checks, avatars, reading query windows. */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SiteId } from '@kickback/common/http/leaderboards';
import type { BotProtection } from './bot-protection';
import type { SimFigures, SimPlayer } from './model';

export interface SimulatorContext {
  app: FastifyInstance;
  /** `${PUBLIC_URL}/dev/partners` */
  base: string;
  /** The key (or referral code) the simulator accepts for a site. */
  keyFor(site: SiteId): string | null;
  /** Clash's and Cases' bot protection, off until a test or an operator turns it on. */
  botProtection: BotProtection;
  /** A player's name as the partner reports it now: renamed through the control route, else the cast's. */
  nameOf(player: SimPlayer): string;
  /** simFigures plus the bets placed through the control route in [from, min(to, now)). */
  figures(site: SiteId, from: Date, to: Date, now: Date): SimFigures[];
}

export function avatarPath(player: SimPlayer): string | null {
  return player.hasAvatar ? `/dev/partners/avatar/${player.site}/${player.id}.svg` : null;
}

export function unauthorized(reply: FastifyReply, body: unknown = { message: 'Unauthorized' }) {
  return reply.status(401).send(body);
}

/** A date query value: ISO text, epoch milliseconds or (with `seconds`) epoch seconds. */
export function dateParam(value: unknown, seconds = false): Date | null {
  if (typeof value !== 'string' || value === '') return null;
  if (/^\d+$/.test(value)) {
    const n = Number(value) * (seconds ? 1000 : 1);
    const d = new Date(n);
    return Number.isNaN(d.getTime()) ? null : d;
  }
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

export const cents = (n: number) => Math.round(n) / 100;
