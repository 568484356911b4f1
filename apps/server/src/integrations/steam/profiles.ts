/**
 * Steam Web API `GetPlayerSummaries`: display name and avatar for a SteamID64. Used after sign-in;
 * a failure only means we keep the name we had.
 */
import { z } from 'zod';

const summaries = z.object({
  response: z.object({
    players: z.array(
      z.looseObject({
        steamid: z.string(),
        personaname: z.string(),
        avatarfull: z.string().optional(),
        avatarmedium: z.string().optional(),
      }),
    ),
  }),
});

export interface SteamProfile {
  steamId: string;
  personaName: string;
  avatarUrl: string | null;
}

export async function fetchPlayerSummary(
  http: typeof fetch,
  apiUrl: string,
  apiKey: string,
  steamId: string,
): Promise<SteamProfile | null> {
  const url = new URL(`${apiUrl.replace(/\/+$/, '')}/ISteamUser/GetPlayerSummaries/v0002/`);
  url.searchParams.set('key', apiKey);
  url.searchParams.set('steamids', steamId);
  const res = await http(url, { signal: AbortSignal.timeout(6000) });
  if (!res.ok) throw new Error(`GetPlayerSummaries HTTP ${res.status}`);
  const parsed = summaries.safeParse(await res.json());
  if (!parsed.success) throw new Error('GetPlayerSummaries: unexpected response shape');
  const player = parsed.data.response.players.find((p) => p.steamid === steamId);
  if (!player) return null;
  return {
    steamId,
    personaName: player.personaname.slice(0, 64),
    avatarUrl: player.avatarfull ?? player.avatarmedium ?? null,
  };
}
