/**
 * /overlay/battle: the OBS browser source (1920×1080, transparent, public, read-only) of the
 * current battle — the one running, else the latest finished — showing what its page shows: the
 * match in play and the bracket with the results as recorded. It looks for a newer battle every
 * 15 s; the bundle carries no schemas, so the id is read with a plain fetch.
 */
import { useEffect, useState } from 'react';
import { formatAmount } from '../../lib/format';
import type { BattleState } from '@kickback/common/hubs/battle';
import { Bracket, CurrentMatch, LatestResult, statusText } from './bracket';
import { useBattle } from './use-battle';
import './battles.css';

const LOOK_EVERY_MS = 15_000;

function useCurrentBattleId(): string | null {
  const [id, setId] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    const look = () =>
      fetch('/api/battles/current', { headers: { 'X-Requested-With': 'kickback' } })
        .then((r) => (r.ok ? (r.json() as Promise<{ id: string | null }>) : null))
        .then((body) => {
          if (live && body) setId(body.id);
        })
        .catch(() => undefined);
    void look();
    const timer = setInterval(() => void look(), LOOK_EVERY_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, []);
  return id;
}

/**
 * The first round the overlay shows: all of a bracket of up to 8, else from the round in play (the
 * rounds before it are on the battle page), so the text stays large enough to read on stream.
 */
function firstRoundShown(state: BattleState): number {
  if (state.size <= 8) return 0;
  const open = state.matches.find((m) => m.state === 'ready' || m.state === 'waiting');
  const rounds = Math.log2(state.size);
  return open ? open.round : Math.max(0, rounds - 2);
}

export default function BattleOverlayPage() {
  useEffect(() => {
    document.documentElement.classList.add('kb-transparent');
    return () => document.documentElement.classList.remove('kb-transparent');
  }, []);
  const id = useCurrentBattleId();
  const { state } = useBattle(id, { retryForever: true });
  const battle = state && state.id === id ? state : null;
  return (
    <main
      className="kb-overlay kbb-overlay"
      data-testid="battle-overlay"
      data-size={battle?.size}
      aria-label="Battle overlay"
    >
      <h1 className="kb-visually-hidden">Bonus-buy battle</h1>
      <div className="kbb-overlay-head" data-testid="overlay-battle-title">
        {battle ? `${battle.title} · ${statusText[battle.status]}` : 'Waiting for a battle'}
        {battle?.winner && (
          <span data-testid="overlay-battle-winner">
            {' '}
            · Winner: {battle.winner.username}
            {battle.prize.points !== null
              ? ` · ${formatAmount(battle.prize.points)} points`
              : ` · ${battle.prize.item}`}
          </span>
        )}
        {battle?.status === 'registration' && ` · ${battle.entrants.length} entered · type !enter`}
      </div>
      {battle && (
        <div className="kbb-overlay-top">
          <CurrentMatch state={battle} />
          <LatestResult state={battle} />
        </div>
      )}
      {battle && battle.matches.length > 0 && <Bracket state={battle} fromRound={firstRoundShown(battle)} />}
    </main>
  );
}
