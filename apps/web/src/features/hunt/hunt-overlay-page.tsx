/**
 * `/overlay/hunt`: an OBS browser source (1920×1080; sized in units of the viewport's height so it
 * reads the same at 1280×720), public and read-only on a transparent page. The totals stay on top;
 * the list below scrolls to the bonus being opened.
 */
import { useEffect, useRef, type CSSProperties } from 'react';
import type { HuntView } from '@kickback/common/hubs/hunt';
import { formatAmount } from '../../lib/format';
import { money, multiplier, signedMoney } from './format';
import { useHunt } from './use-hunt';
import './hunt-overlay.css';
import { countOf } from '@kickback/common/plural';

function useTransparentPage() {
  useEffect(() => {
    document.documentElement.classList.add('kb-transparent');
    return () => document.documentElement.classList.remove('kb-transparent');
  }, []);
}

/** A figure keeps its full size up to this many characters; a longer one is set smaller to fit its cell. */
const TOTAL_FITS = 10;
const fitted = (value: string): CSSProperties | undefined =>
  value.length > TOTAL_FITS
    ? { fontSize: `calc(${((28 * TOTAL_FITS) / value.length).toFixed(2)} * var(--u))` }
    : undefined;

function Totals({ hunt }: { hunt: HuntView }) {
  const cells: Array<[string, string, string?]> = [
    ['Cost', money(hunt.totalCost)],
    ['Won', money(hunt.won)],
    ['Profit', signedMoney(hunt.profit), hunt.profit >= 0 ? 'up' : 'down'],
    ['Break-even', multiplier(hunt.breakEven)],
    ['Average', multiplier(hunt.average)],
    ['Best', multiplier(hunt.best)],
  ];
  return (
    <dl className="kbh-totals" aria-label="Hunt totals">
      {cells.map(([label, value, tone]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd className={tone} style={fitted(value)}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function GuessLine({ hunt }: { hunt: HuntView }) {
  const g = hunt.guessing;
  if (g.winner) {
    return (
      <p className="kbh-guess kbh-winner" aria-label="Guess winner">
        Winner: {g.winner.kickUsername} · {money(g.winner.amount)}
        {g.winner.prize > 0 &&
          (g.winner.held
            ? ` · ${formatAmount(g.winner.prize)} pts awaiting approval`
            : ` · +${formatAmount(g.winner.prize)} pts`)}
      </p>
    );
  }
  if (g.state === 'open' && hunt.status === 'running') {
    return (
      <p className="kbh-guess">
        Guess the total: <strong>!guess [AMOUNT]</strong> · {g.count} in
      </p>
    );
  }
  return <p className="kbh-guess">Guessing closed · {countOf(g.count, 'guess', 'guesses')}</p>;
}

export default function HuntOverlayPage() {
  useTransparentPage();
  const { state: hunt } = useHunt();
  const current = useRef<HTMLLIElement | null>(null);
  const target = hunt?.currentBonusId ?? null;
  useEffect(() => {
    current.current?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  }, [target, hunt?.bonuses.length]);
  if (!hunt)
    return (
      <main className="kbh-stage" aria-label="Bonus hunt overlay">
        <h1 className="kb-visually-hidden">Bonus hunt</h1>
      </main>
    );
  return (
    <main className="kbh-stage" aria-label="Bonus hunt overlay">
      <section className="kbh-panel" data-status={hunt.status}>
        <header className="kbh-head">
          <h1>{hunt.name}</h1>
          <span>
            {hunt.openedCount}/{hunt.bonuses.length}
          </span>
        </header>
        <Totals hunt={hunt} />
        <GuessLine hunt={hunt} />
        <ol className="kbh-list" aria-label="Bonuses">
          {hunt.bonuses.map((b) => (
            <li
              key={b.id}
              ref={b.id === target ? current : undefined}
              className={b.id === target ? 'current' : b.payout === null ? 'waiting' : 'opened'}
            >
              <span className="kbh-pos">{b.position}</span>
              <span className="kbh-slot">
                {b.slot}
                {b.provider && <small>{b.provider}</small>}
              </span>
              <span className="kbh-figures">
                <span className="kbh-x">{multiplier(b.multiplier)}</span>
                <span className="kbh-money">
                  <span className="kbh-bet">{money(b.bet)}</span>
                  {' → '}
                  <span className="kbh-pay">{b.payout === null ? '—' : money(b.payout)}</span>
                </span>
              </span>
            </li>
          ))}
        </ol>
      </section>
    </main>
  );
}
