/**
 * A battle's bracket (rounds side by side, each match with both sides, their slots, the recorded
 * multipliers and who went on) and the match in play, as large cards. Shared by the battle page and
 * the OBS overlay, so both show the same thing.
 */
import { useCallback, useEffect, useState } from 'react';
import type { BattleMatch, BattleSide, BattleState } from '@kickback/common/hubs/battle';
import { formatAmount } from '../../lib/format';

export function roundName(round: number, rounds: number): string {
  if (round === rounds - 1) return 'Final';
  if (round === rounds - 2) return 'Semi-finals';
  if (round === rounds - 3) return 'Quarter-finals';
  return `Round ${round + 1}`;
}

export const statusText: Record<BattleState['status'], string> = {
  registration: 'Registration open',
  closed: 'Drawing the bracket',
  playing: 'Playing',
  finished: 'Finished',
  cancelled: 'Cancelled',
};

function sideName(side: BattleSide): string {
  if (side.kind === 'entrant') return side.username;
  return side.kind === 'bye' ? 'Bye' : 'To be decided';
}

function Side({ match, which }: { match: BattleMatch; which: 'a' | 'b' }) {
  const side = match[which];
  const result = match.result?.[which];
  const slot = match.result
    ? match.result[which === 'a' ? 'slotA' : 'slotB']
    : side.kind === 'entrant'
      ? side.slot
      : null;
  const won = side.kind === 'entrant' && match.winnerId === side.userId;
  return (
    <div className={`kbb-side${won ? ' kbb-won' : ''}${side.kind !== 'entrant' ? ' kbb-empty' : ''}`}>
      <span className="kbb-name">{sideName(side)}</span>
      {slot && <span className="kbb-slot">{slot}</span>}
      {result && (
        <span className="kbb-multi" data-testid="match-multiplier">
          {result.multiplier}×
        </span>
      )}
    </div>
  );
}

/**
 * How a played match was decided when the multipliers do not say it alone
 * (docs/features/bonus-buy-battles.md#the-tie-rule): a tie on the multiplier goes to the higher
 * win, a tie on both to the earlier entry, and two multipliers that round to the same text were
 * still compared exactly. Null when the shown multipliers differ.
 */
export function tieNote(match: BattleMatch): string | null {
  const r = match.result;
  if (!r || match.state !== 'played') return null;
  const aWon = match.a.kind === 'entrant' && match.winnerId === match.a.userId;
  const [won, lost] = aWon ? [r.a, r.b] : [r.b, r.a];
  const winner = sideName(aWon ? match.a : match.b);
  if (r.decidedBy === 'win') {
    return `Tie at ${won.multiplier}× each: ${winner} goes on with the higher win (${formatAmount(won.win)} against ${formatAmount(lost.win)}).`;
  }
  if (r.decidedBy === 'entry') {
    return `Tie at ${won.multiplier}× each and equal wins: ${winner} goes on, having entered first.`;
  }
  if (won.multiplier === lost.multiplier) {
    return `${won.multiplier}× each when rounded: ${winner}'s exact multiplier (win ÷ cost) is higher.`;
  }
  return null;
}

/** The tie's rule in a few words, for the overlay's bracket boxes (the latest result says it in full). */
function tieShort(match: BattleMatch): string {
  if (match.result?.decidedBy === 'win') return 'Tie: the higher win goes on';
  if (match.result?.decidedBy === 'entry') return 'Tie: the first to enter goes on';
  return 'Level when rounded: the exact multiplier decides';
}

export function MatchBox({ match, current }: { match: BattleMatch; current: boolean }) {
  const tie = tieNote(match);
  return (
    <li
      className={`kbb-match kbb-${match.state}${current ? ' kbb-current' : ''}`}
      data-testid="bracket-match"
      data-state={match.state}
      aria-label={`Match ${match.no + 1}: ${sideName(match.a)} against ${sideName(match.b)}`}
    >
      <Side match={match} which="a" />
      <Side match={match} which="b" />
      {match.state === 'void' && <span className="kbb-void">Void: {match.voidReason}</span>}
      {tie && (
        <>
          <span className="kbb-tie kbb-tie-long" data-testid="match-tie">
            {tie}
          </span>
          <span className="kbb-tie kbb-tie-short" aria-hidden="true">
            {tieShort(match)}
          </span>
        </>
      )}
    </li>
  );
}

/** Whether a scroller has more to show to its right (measured as it scrolls, resizes and changes). */
function useMoreToTheRight() {
  const [node, setNode] = useState<HTMLDivElement | null>(null);
  const [more, setMore] = useState(false);
  const update = useCallback(() => {
    if (node) setMore(node.scrollLeft + node.clientWidth < node.scrollWidth - 1);
  }, [node]);
  useEffect(() => {
    if (!node) return;
    node.addEventListener('scroll', update, { passive: true });
    // Measured once observed, and again when the box resizes or a new state changes its text.
    const resized = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
    resized?.observe(node);
    const changed = typeof MutationObserver === 'undefined' ? null : new MutationObserver(update);
    changed?.observe(node, { childList: true, subtree: true, characterData: true });
    return () => {
      node.removeEventListener('scroll', update);
      resized?.disconnect();
      changed?.disconnect();
    };
  }, [node, update]);
  const ref = useCallback((el: HTMLDivElement | null) => setNode(el), []);
  return { ref, more };
}

/**
 * The rounds side by side. On a page it scrolls sideways when it is wider than the screen: a
 * keyboard-reachable region whose last column shows it goes on (a fade at the cut edge).
 * `fromRound` leaves out the rounds before it (the overlay of a big bracket shows the rounds
 * still to play, each in two columns when it has more than four matches).
 */
export function Bracket({ state, fromRound = 0 }: { state: BattleState; fromRound?: number }) {
  const rounds = Math.log2(state.size);
  const { ref, more } = useMoreToTheRight();
  return (
    <div className={`kbb-bracket-wrap${more ? ' kbb-more' : ''}`}>
      <div className="kbb-bracket" data-testid="bracket" tabIndex={0} role="region" aria-label="Bracket" ref={ref}>
        {Array.from({ length: rounds }, (_, round) => round)
          .filter((round) => round >= fromRound)
          .map((round) => (
            <section key={round} className="kbb-round" aria-label={roundName(round, rounds)}>
              <h3 className="kbb-round-name">{roundName(round, rounds)}</h3>
              <ol className={`kbb-matches${state.size / 2 ** (round + 1) > 4 ? ' kbb-many' : ''}`}>
                {state.matches
                  .filter((m) => m.round === round)
                  .map((m) => (
                    <MatchBox key={m.no} match={m} current={m.no === state.currentMatchNo} />
                  ))}
              </ol>
            </section>
          ))}
      </div>
      {more && (
        <p className="kbb-scroll-hint" data-testid="bracket-scroll-hint">
          More rounds to the right: scroll sideways.
        </p>
      )}
    </div>
  );
}

/** The last match played, with both multipliers and, for a tie, how it was broken (the overlay's). */
export function LatestResult({ state }: { state: BattleState }) {
  const played = state.matches.filter((m) => m.state === 'played' && m.result);
  const match = played[played.length - 1];
  if (!match?.result) return null;
  const rounds = Math.log2(state.size);
  const tie = tieNote(match);
  const side = (which: 'a' | 'b') => {
    const s = match[which];
    const won = s.kind === 'entrant' && match.winnerId === s.userId;
    return (
      <span className={`kbb-latest-side${won ? ' kbb-won' : ''}`}>
        <span className="kbb-name">{sideName(s)}</span>{' '}
        <span className="kbb-multi">{match.result![which].multiplier}×</span>
      </span>
    );
  };
  return (
    <section className="kbb-latest" aria-label="Latest result" data-testid="latest-result">
      <h2 className="kbb-latest-title">
        Latest result · {roundName(match.round, rounds)} · match {match.no + 1}
      </h2>
      <p className="kbb-latest-row">
        {side('a')}
        <span className="kbb-vs">vs</span>
        {side('b')}
      </p>
      {tie && (
        <p className="kbb-tie" data-testid="latest-tie">
          {tie}
        </p>
      )}
    </section>
  );
}

/** The match in play, both sides with their slots. */
export function CurrentMatch({ state }: { state: BattleState }) {
  const match = state.matches.find((m) => m.no === state.currentMatchNo);
  if (!match) return null;
  const rounds = Math.log2(state.size);
  const card = (side: BattleSide) => (
    <div className="kbb-now-side">
      <span className="kbb-now-name">{sideName(side)}</span>
      <span className="kbb-now-slot">{side.kind === 'entrant' ? (side.slot ?? 'Slot not picked yet') : ''}</span>
    </div>
  );
  return (
    <section className="kbb-now" aria-label="Match in play" data-testid="current-match">
      <h2 className="kbb-now-title">
        Now playing · {roundName(match.round, rounds)} · match {match.no + 1}
      </h2>
      <div className="kbb-now-row">
        {card(match.a)}
        <span className="kbb-vs">vs</span>
        {card(match.b)}
      </div>
    </section>
  );
}
