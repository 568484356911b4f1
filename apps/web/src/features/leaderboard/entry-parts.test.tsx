import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RewardText, wageredText } from './entry-parts';
import { rulesFor } from './rules';

describe('board cells', () => {
  it('shows wagers in whole dollars, or a placeholder', () => {
    expect(wageredText(12345.67)).toBe('$12,346');
    expect(wageredText(0)).toBe('$0');
    expect(wageredText(null)).toBe('—');
  });

  it('shows a reward with its bonus as "reward + bonus", 2 decimals', () => {
    const { container, rerender } = render(<RewardText entry={{ reward: 1000, rewardBonus: 250.5 }} unit="gems" />);
    expect(container.textContent).toBe('1,000.00 + 250.50');
    expect(container.querySelector('[aria-label="gems"]')).not.toBeNull();
    rerender(<RewardText entry={{ reward: 25, rewardBonus: null }} unit="USD" />);
    expect(container.textContent).toBe('25.00');
    rerender(<RewardText entry={{ reward: null, rewardBonus: null }} unit="USD" />);
    expect(container.textContent).toBe('—');
  });

  it('lists the Roobet rules on site 6 and the common rules elsewhere', () => {
    expect(rulesFor(6).join(' ')).toMatch(/97% or less count 100%.*Dice is excluded/);
    expect(rulesFor(1)).toEqual([
      'You must be on the code when the leaderboard ends or you lose the prize.',
      'Wager abuse disqualifies.',
    ]);
  });
});
