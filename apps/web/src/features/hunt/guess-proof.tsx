/**
 * The `!guess` round as /hunt shows it: how many guessed, the published hash of the closed list,
 * and at the end the full list with a check, in this browser (crypto.subtle), that it hashes to
 * what was published when guessing closed.
 */
import { useEffect, useState } from 'react';
import { canonicalGuessList, guessListHash } from '@kickback/common/hunt/guesses';
import type { HuntView } from '@kickback/common/hubs/hunt';
import { formatAmount } from '../../lib/format';
import { money } from './format';
import { countOf } from '@kickback/common/plural';

function useHashCheck(hunt: HuntView): 'checking' | 'match' | 'mismatch' | null {
  const { revealed, hash } = hunt.guessing;
  const key = revealed && hash ? `${hash}:${canonicalGuessList(revealed)}` : null;
  const [checked, setChecked] = useState<{ key: string; match: boolean } | null>(null);
  useEffect(() => {
    if (!key || !revealed || !hash) return;
    let live = true;
    void guessListHash(revealed).then((h) => {
      if (live) setChecked({ key, match: h === hash });
    });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by the hash and the list's canonical text
  }, [key]);
  if (!key) return null;
  if (checked?.key !== key) return 'checking';
  return checked.match ? 'match' : 'mismatch';
}

export function GuessWinner({ hunt }: { hunt: HuntView }) {
  const w = hunt.guessing.winner;
  if (!w) return null;
  return (
    <p className="kb-hunt-winner" aria-label="Guess winner">
      Winner: <strong>{w.kickUsername}</strong> guessed {money(w.amount)} ({money(w.distance)} off)
      {w.prize > 0 &&
        (w.paid ? (
          <>
            {' and won '}
            <span className="kb-amount">{formatAmount(w.prize)}</span> points
          </>
        ) : w.held ? (
          <>
            {'; the prize of '}
            <span className="kb-amount">{formatAmount(w.prize)}</span> points awaits an admin&rsquo;s approval
          </>
        ) : (
          ' (prize not paid)'
        ))}
      .
    </p>
  );
}

export function GuessProof({ hunt }: { hunt: HuntView }) {
  const g = hunt.guessing;
  const check = useHashCheck(hunt);
  return (
    <section className="kb-card mt-3" aria-label="Guesses">
      <h3 className="h6">
        <code>!guess</code> · {g.count} {g.count === 1 ? 'guess' : 'guesses'}
        {g.prize > 0 && <> · prize {formatAmount(g.prize)} points</>}
        {g.state === 'open' && hunt.status === 'running' && <span className="badge text-bg-success ms-2">Open</span>}
      </h3>
      <GuessWinner hunt={hunt} />
      {g.hash ? (
        <p className="small mb-2 text-break">
          SHA-256 of the closed list: <code data-testid="guess-hash">{g.hash}</code>
        </p>
      ) : (
        <p className="small text-body-secondary mb-2">The hash of the list is published when guessing closes.</p>
      )}
      {check === 'match' && (
        <p className="small text-success-emphasis mb-2" role="status">
          ✔ The revealed list matches the published hash (checked in your browser).
        </p>
      )}
      {check === 'mismatch' && (
        <p className="small text-danger-emphasis mb-2" role="status">
          ✘ The revealed list does NOT match the published hash.
        </p>
      )}
      {g.revealed && g.revealed.length > 0 && (
        <details>
          <summary className="small">All {countOf(g.revealed.length, 'guess', 'guesses')}, in the order made</summary>
          <ol className="small mb-0 mt-2">
            {g.revealed.map((r) => (
              <li key={r.kickUsername}>
                {r.kickUsername}: {money(r.amount)} <span className="text-body-secondary">at {r.guessedAt}</span>
              </li>
            ))}
          </ol>
        </details>
      )}
    </section>
  );
}
