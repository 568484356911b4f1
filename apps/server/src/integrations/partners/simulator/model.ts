/**
 * The partner simulators' world: per site a fixed cast of players who place bets at deterministic
 * moments (one chance per 10-minute slot, busier in the evening UTC), so wagers grow as time
 * passes and every process, test and restart computes the same figures for the same window.
 * Roobet bets land on games with an RTP and a category, and the weighted wager applies the contract's
 * contribution rule per bet (roobet/weighting.ts).
 */
import type { SiteId } from '@kickback/common/http/leaderboards';
import { demoUsers } from '../../../config';
import { roobetGames, roobetWeightPercent } from '../roobet/weighting';

export const SLOT_MS = 10 * 60_000;
const DAY_MS = 86_400_000;
const SLOTS_PER_WEEK = (7 * DAY_MS) / SLOT_MS;

export interface SimPlayer {
  site: SiteId;
  index: number;
  /** The partner's user id (numeric text, like most partner ids). */
  id: string;
  name: string;
  hasAvatar: boolean;
  /** Chance of a bet in a slot at peak hours. */
  activity: number;
  /** Typical bet in hundredths (a multiple of 10). */
  stake: number;
}

const namePool = [
  'CaseCrusher',
  'NeonWolf',
  'SkinSniper',
  'RustBaron',
  'JackpotJen',
  'MultiMax',
  'GreenGoblin',
  'TiltProof',
  'KnifeDrop',
  'ComboKing',
  'SpinDoctor',
  'BonusBuyer',
  'LowBalLarry',
  'AllInAnna',
  'ScrapCollector',
  'DiamondHands',
  'CrashPilot',
  'PlinkoPete',
  'MinesweeperX',
  'RollTheDice',
  'Zer0Edge',
  'NightOwl',
  'SirWagersAlot',
  'Mr_Multiplier',
  'Gambit',
  'FrostByte',
  'LuckyStreak',
  'BigBetBetty',
  'SlotSamurai',
  'TowerClimber',
  'ChipLeader',
  'VaultHunter',
] as const;

/** Demo users appear on every board so the demo can link them (demo/leaderboards seeder). */
const demoNames = demoUsers.filter((u) => !u.admin).map((u) => u.name);

export const PLAYERS_PER_SITE = 26;

/** murmur3's finaliser over a few integers: a fast, well-mixed deterministic hash → [0, 1). */
export function unit(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const p of parts) {
    h ^= Math.imul(p | 0, 0xcc9e2d51);
    h = Math.imul((h << 15) | (h >>> 17), 0x1b873593);
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return (h >>> 0) / 4294967296;
}

const playerCache = new Map<SiteId, SimPlayer[]>();

export function simPlayers(site: SiteId): SimPlayer[] {
  const cached = playerCache.get(site);
  if (cached) return cached;
  // A per-site order of the name pool: each board has its own cast, with the demo users in it.
  const names = [...namePool].sort((a, b) => unit(site, hashText(a)) - unit(site, hashText(b)));
  const cast = [...demoNames, ...names].slice(0, PLAYERS_PER_SITE);
  const players = cast.map((name, index) => {
    const r = unit(site, index, 7);
    // A heavy tail: a few whales, many small players.
    const tier = r < 0.12 ? 40_000 : r < 0.35 ? 8_000 : r < 0.7 ? 2_000 : 400;
    return {
      site,
      index,
      id: String(1_000_000 + Math.floor(unit(site, index, 1) * 8_999_999)),
      name: site === 4 ? name.toLowerCase() : name,
      hasAvatar: unit(site, index, 2) < 0.8,
      activity: 0.08 + unit(site, index, 3) * 0.4,
      stake: Math.round((tier * (0.5 + unit(site, index, 4))) / 10) * 10,
    } satisfies SimPlayer;
  });
  playerCache.set(site, players);
  return players;
}

function hashText(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** Busier in the evening UTC: 0.35 at 06:00, 1 around 20:00. */
function hourFactor(slot: number): number {
  const hour = Math.floor(((slot * SLOT_MS) % DAY_MS) / 3_600_000);
  return 0.35 + 0.65 * Math.max(0, Math.cos(((hour - 20) / 24) * 2 * Math.PI));
}

export interface SimBet {
  slot: number;
  amount: number;
  game: (typeof roobetGames)[number];
}

/** The bets a player placed in [from, until): one slot at a time, each slot's start inside the range. */
export function* betsOf(player: SimPlayer, from: Date, until: Date): Generator<SimBet> {
  const first = Math.ceil(from.getTime() / SLOT_MS);
  const last = Math.ceil(until.getTime() / SLOT_MS); // exclusive
  for (let slot = first; slot < last; slot++) {
    // Each calendar week every player is in a different mood, so boards change from week to week.
    const week = Math.floor(slot / SLOTS_PER_WEEK);
    const mood = 0.35 + 1.3 * unit(player.site, player.index, week, 31);
    if (unit(player.site, player.index, slot, 11) >= player.activity * mood * hourFactor(slot)) continue;
    const spike = unit(player.site, player.index, slot, 13) < 0.03 ? 8 : 1;
    const amount = Math.max(
      10,
      Math.round((player.stake * (0.3 + 1.4 * unit(player.site, player.index, slot, 12)) * spike) / 10) * 10,
    );
    const game = roobetGames[Math.floor(unit(player.site, player.index, slot, 14) * roobetGames.length)];
    if (game) yield { slot, amount, game };
  }
}

export interface SimFigures {
  player: SimPlayer;
  /** Hundredths. */
  wagered: number;
  weighted: number;
  favoriteGame: string | null;
  /** False once the player left the code (the real APIs stop listing them, RustMagic flags it). */
  onCode: boolean;
}

/**
 * Every player's figures for bets in [from, min(to, now)). A few players leave the code part way
 * through a period (decided per period start), and from then on their bets no longer count.
 */
export function simFigures(site: SiteId, from: Date, to: Date, now: Date): SimFigures[] {
  const until = new Date(Math.min(to.getTime(), now.getTime()));
  const periodSeed = Math.floor(from.getTime() / DAY_MS);
  const out: SimFigures[] = [];
  for (const player of simPlayers(site)) {
    const leaves = player.index >= demoNames.length && unit(site, player.index, periodSeed, 21) < 0.08;
    const leftAt = leaves ? from.getTime() + (1.5 + 3 * unit(site, player.index, periodSeed, 22)) * DAY_MS : Infinity;
    const cap = new Date(Math.min(until.getTime(), leftAt));
    let wagered = 0;
    let weighted = 0;
    const games = new Map<string, number>();
    for (const bet of betsOf(player, from, cap)) {
      wagered += bet.amount;
      weighted += (bet.amount * roobetWeightPercent(bet.game)) / 100;
      games.set(bet.game.title, (games.get(bet.game.title) ?? 0) + bet.amount);
    }
    if (wagered === 0) continue;
    const favoriteGame = [...games.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
    out.push({ player, wagered, weighted, favoriteGame, onCode: until.getTime() < leftAt });
  }
  return out;
}
