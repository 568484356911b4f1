/**
 * The live prediction's admin controls: the winning answer chosen for one prediction is not carried
 * over to the next (Resolve is never one click away on a new one).
 */
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PredictionState } from '@kickback/common/hubs/prediction';
import { createQueryClient } from '../../lib/query';
import { renderWithQueries } from '../../test/render';

vi.mock('react-toastify', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const { CurrentPrediction } = await import('./current-prediction');

const prediction = (id: string, content: string) =>
  ({
    id,
    state: 1,
    content,
    answers: [
      { id: 1, text: 'Yes', color: '#53fc18', participantCount: 0, points: 0 },
      { id: 2, text: 'No', color: '#ff4d6d', participantCount: 0, points: 0 },
    ],
    resultAnswerId: null,
    resultAnswer: null,
    startTime: null,
    winnersResult: [],
    losersResult: [],
    minBet: null,
    maxBet: null,
  }) as unknown as PredictionState;

afterEach(cleanup);

describe('Current prediction', () => {
  it('starts a new prediction with no winning answer selected and Resolve disabled', () => {
    const client = createQueryClient();
    const first = prediction('00000000-0000-4000-8000-000000000001', 'First?');
    const { rerender } = renderWithQueries(<CurrentPrediction state={first} />);
    const select = () => screen.getByLabelText('Winning answer') as HTMLSelectElement;
    const resolve = () => screen.getByRole('button', { name: 'Resolve' }) as HTMLButtonElement;
    fireEvent.change(select(), { target: { value: '2' } });
    expect(select().value).toBe('2');
    expect(resolve().disabled).toBe(false);

    const next = prediction('00000000-0000-4000-8000-000000000002', 'Second?');
    rerender(
      <QueryClientProvider client={client}>
        <CurrentPrediction state={next} />
      </QueryClientProvider>,
    );
    expect(screen.getByText('Second?')).toBeTruthy();
    expect(select().value).toBe('');
    expect(resolve().disabled).toBe(true);
  });
});
