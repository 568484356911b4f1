/**
 * A battle's bracket (rounds side by side, each match with both sides, their slots, the recorded
 * multipliers and who went on) and the match in play, as large cards. Shared by the battle page and
 * the OBS overlay, so both show the same thing.
 */
import type { BattleMatch, BattleSide, BattleState } from '@kickback/common/hubs/battle';

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

export function MatchBox({ match, current }: { match: BattleMatch; current: boolean }) {
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
    </li>
  );
}

export function Bracket({ state }: { state: BattleState }) {
  const rounds = Math.log2(state.size);
  return (
    <div className="kbb-bracket" data-testid="bracket">
      {Array.from({ length: rounds }, (_, round) => (
        <section key={round} className="kbb-round" aria-label={roundName(round, rounds)}>
          <h3 className="kbb-round-name">{roundName(round, rounds)}</h3>
          <ol className="kbb-matches">
            {state.matches
              .filter((m) => m.round === round)
              .map((m) => (
                <MatchBox key={m.no} match={m} current={m.no === state.currentMatchNo} />
              ))}
          </ol>
        </section>
      ))}
    </div>
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
