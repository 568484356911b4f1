/**
 * Type 5 (Roobet): what the user wagered under the code on the previous UTC day, from the partner's
 * affiliate stats. The Roobet API takes a start and an end, so the finished day is fetched once
 * (the first claim of a day triggers it) and stored; later claims that day read PostgreSQL.
 * The leaderboard standings cannot answer this: they hold period totals, not days.
 */
import type { FastifyInstance } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { centsToText } from '@kickback/common/money';
import { partnerDailyFetches, partnerDailyWagers } from '../../db/schema/daily-rewards';
import { AppError } from '../../lib/errors';
import { said, t } from '../../lib/i18n';

export const ROOBET_SITE = 6 as const;
const DAY_MS = 86_400_000;

export const roobetStatsUnavailable = t('en', 'daily:roobetStatsUnavailable');

export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

export function previousUtcDay(now: Date): { day: string; start: Date; end: Date } {
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const start = new Date(end.getTime() - DAY_MS);
  return { day: utcDay(start), start, end };
}

/** One fetch per day at a time in this process: fifty claims at midnight make one partner call. */
const inflight = new WeakMap<FastifyInstance, Map<string, Promise<void>>>();

function ensureDayFetched(app: FastifyInstance, day: string, start: Date, end: Date): Promise<void> {
  let running = inflight.get(app);
  if (!running) inflight.set(app, (running = new Map()));
  const current = running.get(day);
  if (current) return current;
  const started = fetchDay(app, day, start, end).finally(() => running.delete(day));
  running.set(day, started);
  return started;
}

/** Fetches and stores a day's figures unless that day was fetched already. */
async function fetchDay(app: FastifyInstance, day: string, start: Date, end: Date): Promise<void> {
  const [done] = await app.db
    .select({ day: partnerDailyFetches.day })
    .from(partnerDailyFetches)
    .where(and(eq(partnerDailyFetches.site, ROOBET_SITE), eq(partnerDailyFetches.day, day)));
  if (done) return;
  const provider = app.leaderboards.providers[ROOBET_SITE];
  if (!provider) throw new AppError(503, said('daily:roobetStatsUnavailable'));
  let standings;
  try {
    standings = await provider.adapter.fetchStandings({ start, end, now: app.clock.now() });
  } catch (err) {
    app.log.warn({ err, day }, 'roobet daily stats fetch failed');
    throw new AppError(503, said('daily:roobetStatsUnavailable'));
  }
  // A name may appear twice in lenient answers: keep the sum.
  const byName = new Map<string, { wagered: bigint; weighted: bigint | null }>();
  for (const s of standings) {
    const key = s.username.trim().toLowerCase();
    if (!key) continue;
    const prev = byName.get(key);
    byName.set(key, {
      wagered: (prev?.wagered ?? 0n) + s.wagered,
      weighted:
        s.weightedWagered === null && (prev?.weighted ?? null) === null
          ? null
          : (prev?.weighted ?? 0n) + (s.weightedWagered ?? 0n),
    });
  }
  await app.db.transaction(async (tx) => {
    const rows = [...byName].map(([playerName, v]) => ({
      site: ROOBET_SITE,
      day,
      playerName,
      wagered: centsToText(v.wagered),
      weightedWagered: v.weighted === null ? null : centsToText(v.weighted),
    }));
    for (let i = 0; i < rows.length; i += 500) {
      await tx
        .insert(partnerDailyWagers)
        .values(rows.slice(i, i + 500))
        .onConflictDoNothing();
    }
    await tx
      .insert(partnerDailyFetches)
      .values({ site: ROOBET_SITE, day, fetchedAt: app.clock.now(), players: rows.length })
      .onConflictDoNothing();
  });
}

/**
 * The user's ranked wager (Roobet's weighted wager, else the plain one) on the previous UTC day,
 * in hundredths of USD; 0 when they did not wager under the code.
 */
export async function previousDayWager(app: FastifyInstance, roobetName: string): Promise<bigint> {
  const { day, start, end } = previousUtcDay(app.clock.now());
  await ensureDayFetched(app, day, start, end);
  const [row] = await app.db
    .select({ wagered: partnerDailyWagers.wagered, weighted: partnerDailyWagers.weightedWagered })
    .from(partnerDailyWagers)
    .where(
      and(
        eq(partnerDailyWagers.site, ROOBET_SITE),
        eq(partnerDailyWagers.day, day),
        eq(partnerDailyWagers.playerName, roobetName.trim().toLowerCase()),
      ),
    );
  if (!row) return 0n;
  const text = row.weighted ?? row.wagered;
  const [units = '0', frac = ''] = text.split('.');
  return BigInt(units) * 100n + BigInt(frac.padEnd(2, '0').slice(0, 2));
}
