import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ParticipantCount } from './participant-count';

afterEach(cleanup);

describe('Giveaway participant count', () => {
  it('says "1 participant" for one entrant', () => {
    render(<ParticipantCount count={1} />);
    expect(screen.getByTestId('participant-count').textContent).toBe('1 participant');
  });

  it('says "2 participants" for two entrants', () => {
    render(<ParticipantCount count={2} />);
    expect(screen.getByTestId('participant-count').textContent).toBe('2 participants');
  });
});
