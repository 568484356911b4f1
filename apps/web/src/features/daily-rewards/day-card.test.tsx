import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DayCard, type DayView } from './day-card';

const renderCard = (view: DayView, onClaim = vi.fn(), amount = 0) =>
  render(<DayCard day={12} index={11} view={view} amount={amount} icon="USD" isToday={false} onClaim={onClaim} />);

afterEach(cleanup);

describe('daily reward card', () => {
  it('offers a claim when available, in the colour of day index mod 8', () => {
    const onClaim = vi.fn();
    renderCard('available', onClaim);
    const card = screen.getByRole('button', { name: 'Day 12, available, press to claim' });
    expect(card.className).toContain('kb-case-3');
    expect(card.textContent).toContain('Available');
    fireEvent.click(card);
    expect(onClaim).toHaveBeenCalledTimes(1);
  });

  it.each<[DayView, string]>([
    ['locked', 'Day 12, locked'],
    ['timeout', 'Day 12, timed out'],
    ['loading', 'Day 12, claiming'],
    ['unavailable', 'Day 12, nothing to claim'],
  ])('ignores clicks when %s', (view, name) => {
    const onClaim = vi.fn();
    renderCard(view, onClaim);
    fireEvent.click(screen.getByRole('button', { name }));
    expect(onClaim).not.toHaveBeenCalled();
  });

  it('shows a padlock when locked, a cross when timed out and a spinner while claiming', () => {
    const { container, rerender } = renderCard('locked');
    expect(container.querySelector('.kb-day-lock svg')).not.toBeNull();
    rerender(<DayCard day={12} index={11} view="timeout" amount={0} icon="USD" isToday={false} onClaim={vi.fn()} />);
    expect(container.querySelector('.kb-day-cross svg')).not.toBeNull();
    rerender(<DayCard day={12} index={11} view="loading" amount={0} icon="USD" isToday={false} onClaim={vi.fn()} />);
    expect(screen.getByRole('status', { name: 'Claiming' })).toBeTruthy();
  });

  it('turns over to the amount with its currency icon when claimed', () => {
    const { container } = renderCard('claimed', vi.fn(), 14.5);
    expect(screen.getByRole('button', { name: 'Day 12, claimed: 14.50' })).toBeTruthy();
    expect(container.querySelector('.kb-day-inner')?.className).toContain('kb-day-flipped');
    expect(container.querySelector('.kb-day-back [data-testid="day-amount"]')?.textContent).toBe('14.50');
    expect(container.querySelector('.kb-day-back [aria-label="US dollars"]')).not.toBeNull();
  });

  it("says on today's case why it cannot be claimed", () => {
    const onClaim = vi.fn();
    render(
      <DayCard
        day={12}
        index={11}
        view="unavailable"
        reason="No wagering yesterday"
        amount={0}
        icon="USD"
        isToday
        onClaim={onClaim}
      />,
    );
    const card = screen.getByRole('button', { name: 'Day 12, nothing to claim: No wagering yesterday' });
    expect(card.textContent).toContain('No wagering yesterday');
    expect(card.textContent).not.toContain('Available');
    expect((card as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(card);
    expect(onClaim).not.toHaveBeenCalled();
  });
});
