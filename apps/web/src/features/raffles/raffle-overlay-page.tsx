/**
 * /overlay/raffle: the OBS browser source (1920×1080, transparent, public, read-only). It shows
 * the latest raffle draw: a draw that happens while it is open spins the wheel once per prize at
 * the same moment as the site's raffle page; one from before is shown landed.
 */
import { useCallback, useEffect, useState } from 'react';
import type { RaffleDrawn } from '@kickback/common/hubs/raffles';
import '../../components/draw/overlay-stage.css';
import './raffles.css';
import { RaffleWheel } from './raffle-wheel';
import { useRafflesHub } from './use-raffles-hub';

export default function RaffleOverlayPage() {
  const [shown, setShown] = useState<{ drawn: RaffleDrawn; spin: boolean } | null>(null);

  useEffect(() => {
    document.documentElement.classList.add('kb-transparent');
    return () => document.documentElement.classList.remove('kb-transparent');
  }, []);

  const onDrawn = useCallback((drawn: RaffleDrawn) => setShown({ drawn, spin: true }), []);
  const onLastDraw = useCallback(
    (drawn: RaffleDrawn | null) => setShown((current) => current ?? (drawn ? { drawn, spin: false } : null)),
    [],
  );
  useRafflesHub({ onDrawn, onLastDraw });

  return (
    <main className="kb-overlay" data-testid="raffle-overlay" aria-label="Raffle overlay">
      <h1 className="kb-visually-hidden">Raffle</h1>
      <div className="kb-overlay-count">
        <span data-testid="overlay-raffle-title">{shown ? shown.drawn.title : 'Waiting for the raffle draw'}</span>
      </div>
      {shown && <RaffleWheel key={shown.drawn.raffleId} drawn={shown.drawn} spin={shown.spin} large />}
    </main>
  );
}
