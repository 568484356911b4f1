/**
 * Demo data for the leaderboards (`DEMO_DATA`): prize tables, referral codes and links for the
 * seven boards, site users linked to simulator players (the demo sign-in users among them, some
 * showing their names, one excluded), and a finished previous week on every simulated board —
 * ranked, prizes queued for the linked winners — so `npm start` opens on living boards. The
 * running week comes from the poller and the simulators. Runs only on a database with no periods.
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { siteById, siteIds, type SiteId, type SiteSettingsInput } from '@kickback/common/http/leaderboards';
import { demoUsers } from '../../config';
import { leaderboardPeriods } from '../../db/schema/leaderboards';
import { users } from '../../db/schema/users';
import { simPlayers } from '../../integrations/partners/simulator/model';
import { simulatedStandings } from '../../integrations/partners/simulator/standings';
import type { PartnerStanding } from '../../integrations/partners/types';
import { activeLink, insertVerifiedLink } from '../partner-links/service';
import { closePeriod } from './closer';
import { currentWindow } from './periods';
import { loadSiteSettings, settingsToInput, writeSiteSettings } from './settings';
import { writeStandings } from './standings';

type Prizes = Array<[number, number?]>;

const demoPrizes: Record<SiteId, Prizes> = {
  1: [[1000, 250], [600, 100], [400, 50], [250], [150], [100], [75], [50], [30], [20]],
  2: [[500, 50], [300], [200], [100], [50]],
  3: [[750, 100], [400], [250], [150], [100], [50], [25]],
  4: [[500], [250], [125], [75], [50]],
  5: [[600, 60], [300], [150], [100], [50], [25]],
  6: [[2000, 500], [1000, 200], [600], [400], [300], [200], [150], [100], [75], [50]],
  7: [[750, 100], [400], [250], [150], [100], [50]],
};

const referralLinks: Record<SiteId, (code: string) => string> = {
  1: (c) => `https://clash.gg/r/${c}`,
  2: (c) => `https://clash.gg/r/${c}`,
  3: (c) => `https://csgobig.com/r/${c}`,
  4: (c) => `https://howl.gg/r/${c}`,
  5: (c) => `https://rustmagic.com/r/${c}`,
  6: (c) => `https://roobet.com/?ref=${c.toLowerCase()}`,
  7: (c) => `https://cases.gg/r/${c}`,
};

/** Community members linked to simulator players: [steamId, name, site, player index, shows name, excluded]. */
const community: Array<[string, string, SiteId, number, boolean, boolean]> = [
  ['76561199999999101', 'Marta', 1, 5, true, false],
  ['76561199999999102', 'Jonas', 6, 4, true, false],
  ['76561199999999103', 'Priya', 6, 7, false, false],
  ['76561199999999104', 'Tomasz', 5, 6, true, false],
  ['76561199999999105', 'Aiko', 7, 5, true, false],
  ['76561199999999106', 'VexAlt', 6, 8, true, true],
];

const linkField = { 1: 'clashId', 2: 'clashId', 5: 'rustMagicId', 6: 'roobetName', 7: 'casesId' } as const;

function linkValue(site: SiteId, index: number): string {
  const player = simPlayers(site)[index];
  if (!player) return '';
  return site === 6 ? player.name : player.id;
}

/** The simulator players the demo links to site users on a board (they stay on the code). */
function linkedPlayers(site: SiteId): Set<string> {
  const keys = new Set<string>();
  const add = (index: number) => {
    const value = linkValue(site, index);
    if (value) keys.add(value.toLowerCase());
  };
  for (const [, , s, index] of community) if (s === site) add(index);
  for (const index of [0, 1, 2]) add(index); // the dev sign-in's demo users link players 0 to 2
  return keys;
}

/**
 * Every board's finished week shows one player who left the code during it (docs/features/leaderboards.md#rules-and-configuration):
 * listed with the "Not active" cross and no prize, as the poller leaves such a player. The lowest
 * wagerer not linked to a site user is the one, unless the simulator already had a leaver.
 */
function withOneLeaver(standings: PartnerStanding[], linked: Set<string>): PartnerStanding[] {
  if (standings.length < 2 || standings.some((s) => !s.onCode)) return standings;
  const ranked = [...standings].sort((a, b) => (a.wagered < b.wagered ? -1 : a.wagered > b.wagered ? 1 : 0));
  const leaver = ranked.find(
    (s) => !linked.has((s.externalId?.replace(/^rb-/, '') ?? '').toLowerCase()) && !linked.has(s.username.toLowerCase()),
  );
  return standings.map((s) => (s === leaver ? { ...s, onCode: false } : s));
}

export async function seedLeaderboards(app: FastifyInstance): Promise<void> {
  const db = app.db;
  if ((await db.select({ id: leaderboardPeriods.id }).from(leaderboardPeriods).limit(1)).length > 0) return;
  const now = app.clock.now();
  const code = app.config.site.streamerName.toUpperCase().replace(/[^\w.-]/g, '') || 'CODE';

  for (const site of siteIds) {
    const meta = siteById(site);
    if (!meta) continue;
    const current = settingsToInput(await loadSiteSettings(db, site));
    if (current.rewards.length > 0) continue;
    const codes = meta.codeCount === 2 ? [code, `${code}${site === 1 ? 'GG' : 'CASES'}`] : [code];
    const input: SiteSettingsInput = {
      ...current,
      rewards: demoPrizes[site].map(([reward, bonus]) => ({ reward, rewardBonus: bonus ?? null })),
      codes,
      referralUrl: referralLinks[site](code),
    };
    await writeSiteSettings(db, site, input, now);
  }

  // Site users: the dev sign-in's demo users (created as their first sign-in would) and a few more.
  const devAvatar = (steamId: string) =>
    app.config.steam.signin === 'dev' ? `${app.config.publicUrl}/dev/steam/avatar/${steamId}.svg` : null;
  const [luke, queen, roller] = demoUsers.filter((u) => !u.admin);
  const people: Array<{
    steamId: string;
    name: string;
    avatar: string | null;
    links: Partial<Record<SiteId, number>>;
    show: boolean;
    excluded: boolean;
  }> = [];
  if (luke)
    people.push({
      steamId: luke.steamId,
      name: luke.name,
      avatar: devAvatar(luke.steamId),
      links: { 1: 0, 5: 0, 6: 0, 7: 0 },
      show: true,
      excluded: false,
    });
  if (queen)
    people.push({
      steamId: queen.steamId,
      name: queen.name,
      avatar: devAvatar(queen.steamId),
      links: { 1: 1, 7: 1 },
      show: false,
      excluded: false,
    });
  if (roller)
    people.push({
      steamId: roller.steamId,
      name: roller.name,
      avatar: devAvatar(roller.steamId),
      links: { 5: 2, 6: 2 },
      show: true,
      excluded: false,
    });
  for (const [steamId, name, site, index, show, excluded] of community) {
    people.push({ steamId, name, avatar: null, links: { [site]: index }, show, excluded });
  }
  for (const p of people) {
    await db.insert(users).values({ steamId: p.steamId, username: p.name, avatarUrl: p.avatar }).onConflictDoNothing();
    const [row] = await db
      .update(users)
      .set({ showNameOnBoards: p.show, excluded: p.excluded })
      .where(eq(users.steamId, p.steamId))
      .returning({ id: users.id });
    if (!row) continue;
    for (const [siteText, index] of Object.entries(p.links)) {
      const site = Number(siteText) as keyof typeof linkField;
      // Demo links are verified, as an admin would have decided; an existing link stays.
      await db.transaction(async (tx) => {
        if (await activeLink(tx, row.id, linkField[site])) return;
        await insertVerifiedLink(tx, row.id, linkField[site], linkValue(site, index), {
          now,
          decidedBy: 'demo data',
          reason: 'Demo data',
        });
      });
    }
  }

  // Last week, as the simulators reported it at its end, frozen like the poller would have.
  for (const site of siteIds) {
    if (app.leaderboards.providerMode(site) !== 'simulator') continue;
    const settings = await loadSiteSettings(db, site);
    const running = currentWindow(settings.schedule, now, null);
    const start = new Date(running.start.getTime() - settings.schedule.days * 86_400_000);
    const [period] = await db
      .insert(leaderboardPeriods)
      .values({ site, startAt: start, endAt: running.start })
      .onConflictDoNothing()
      .returning();
    if (!period) continue;
    const standings = withOneLeaver(
      simulatedStandings(site, start, running.start, running.start, app.config.publicOrigin),
      linkedPlayers(site),
    );
    await writeStandings(db, period.id, standings, running.start);
    await closePeriod(db, period.id, running.start);
  }
  app.log.info('leaderboard demo data seeded');
}
