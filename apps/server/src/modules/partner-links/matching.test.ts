/**
 * A poll's match of players to links is reused only for exactly the players it was made of
 * (docs/features/partner-links.md#rules): which link a player matches depends on every other
 * player listed.
 */
import { describe, expect, it } from 'vitest';
import { sameMatch, type PlayersMatch } from './matching';

const players = [
  { playerKey: 'id:31', username: 'AlphaP', externalId: '31' },
  { playerKey: 'name:betap', username: 'BetaP', externalId: null },
];
const match: PlayersMatch = { players, links: new Map() };

describe('sameMatch', () => {
  it('holds for the same players in any order', () => {
    expect(sameMatch(match, [...players].reverse())).toBe(true);
  });

  it('fails for one player more or fewer, another name or another id', () => {
    expect(sameMatch(match, players.slice(1))).toBe(false);
    expect(sameMatch(match, [...players, { playerKey: 'id:33', username: 'GammaP', externalId: '33' }])).toBe(false);
    expect(sameMatch(match, [{ ...players[0]!, username: 'AlphaRenamed' }, players[1]!])).toBe(false);
    expect(sameMatch(match, [players[0]!, { ...players[1]!, externalId: '32' }])).toBe(false);
  });
});
