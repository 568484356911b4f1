/**
 * A raffle's draw on the wheel (the site page and the OBS overlay): one spin per prize, in draw
 * order, each landing on that prize's winner; then the winners with their prizes. A draw from
 * before the page opened is shown landed. No Bootstrap: the overlay's bundle draws it too.
 */
import { useState } from 'react';
import type { RaffleDrawn } from '@kickback/common/hubs/raffles';
import { Spinner } from '../../components/draw/spinner';

export function RaffleWheel({ drawn, spin, large = false }: { drawn: RaffleDrawn; spin: boolean; large?: boolean }) {
  const total = drawn.winners.length;
  // How many winners have landed: all of them when the draw is not spun here.
  const [state, setState] = useState({ for: drawn.raffleId, landed: spin ? 0 : total });
  const landed = state.for === drawn.raffleId ? state.landed : spin ? 0 : total;
  // The wheel spins to each winner in turn and stays on the last one.
  const shownAt = Math.min(landed, total - 1);
  const current = total > 0 ? drawn.winners[shownAt]! : null;
  return (
    <div className="kb-raffle-wheel" data-testid="raffle-wheel">
      {spin && current && (
        <Spinner
          large={large}
          names={drawn.reel}
          roll={{ rollId: `${drawn.raffleId}:${shownAt}`, winner: current }}
          onLanded={() => setState({ for: drawn.raffleId, landed: shownAt + 1 })}
        />
      )}
      {total === 0 && <p className="kb-raffle-none">No tickets: no winner.</p>}
      {landed > 0 && (
        <ol className="kb-raffle-winners" data-testid="raffle-winners" aria-live="polite">
          {drawn.winners.slice(0, landed).map((w, i) => (
            <li key={i}>
              <strong>{w.username}</strong> wins {w.prize}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
