import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SplitOrStealStatus } from '@kickback/common/games/split-or-steal';
import type { SplitOrStealPlayer } from '@kickback/common/hubs/split-or-steal';
import { PlayerSlot } from './player-slot';

afterEach(cleanup);

const player = (prizeHeld: boolean): SplitOrStealPlayer => ({
  userId: 'u1',
  username: 'Alt',
  avatarUrl: null,
  selection: 1,
  winnings: 4000,
  isWinner: true,
  prizeHeld,
});

const slot = (p: SplitOrStealPlayer) =>
  render(
    <PlayerSlot
      slot={1}
      status={SplitOrStealStatus.Ended}
      player={p}
      reserved={null}
      balls={[1, 2]}
      isMine
      canJoin={false}
      onJoin={vi.fn()}
      onSelect={vi.fn()}
    />,
  );

describe('a Split or Steal player at the end', () => {
  it('with the prize held for an admin: the amount awaits approval, no "+"', () => {
    slot(player(true));
    const shown = screen.getByTestId('winnings-u1').textContent ?? '';
    expect(shown).toContain('4,000.00 points');
    expect(shown).toContain('Awaiting an admin’s approval: not in the balance yet');
    expect(shown).not.toContain('+');
  });

  it('paid: "+4,000.00 points"', () => {
    slot(player(false));
    expect(screen.getByTestId('winnings-u1').textContent).toBe('+4,000.00 points');
  });
});
