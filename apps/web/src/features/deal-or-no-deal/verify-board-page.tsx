/**
 * /game/dealornodeal/{id}/verify (public, outside the layout): checks in this browser that the
 * boxes were not moved during the game. The game published SHA-256(seed ‖ board) before the
 * first box opened; once it ended it revealed the seed and the board. This page hashes them here
 * with Web Crypto (the server is not trusted to say "match") and compares.
 * docs/features/deal-or-no-deal.md#verifying-a-board gives the exact bytes.
 */
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import Spinner from 'react-bootstrap/Spinner';
import { boardCommitment, boardText } from '@kickback/common/games/deal-or-no-deal';
import { dealOrNoDealEndpoints, type BoardVerification } from '@kickback/common/http/deal-or-no-deal';
import { toCents } from '@kickback/common/money';
import { useEndpointQuery } from '../../lib/query';
import './deal-or-no-deal.css';

type Check =
  | { kind: 'loading' }
  | { kind: 'failed' }
  | { kind: 'pending'; data: BoardVerification }
  | { kind: 'done'; data: BoardVerification; computed: string };

export default function VerifyBoardPage() {
  const { id = '' } = useParams();
  const verification = useEndpointQuery(dealOrNoDealEndpoints.verification, { params: { gameId: id } });
  const data = verification.data;
  const [computed, setComputed] = useState<{ for: BoardVerification; hash: string } | null>(null);

  // Hashing is the browser's own work (not a read): redone when a new answer arrives.
  useEffect(() => {
    if (!data || data.seed === null || data.board === null) return;
    let live = true;
    void boardCommitment(
      crypto.subtle,
      data.seed,
      data.board.map((a) => toCents(a)),
    ).then((hash) => live && setComputed({ for: data, hash }));
    return () => {
      live = false;
    };
  }, [data]);

  const check: Check = verification.isError
    ? { kind: 'failed' }
    : !data
      ? { kind: 'loading' }
      : data.seed === null || data.board === null
        ? { kind: 'pending', data }
        : computed?.for === data
          ? { kind: 'done', data, computed: computed.hash }
          : { kind: 'loading' };

  return (
    <section className="dond-stage dond-stage-message">
      <div className="dond-message-card dond-verify">
        <h1 className="dond-message-title">Verify the board</h1>
        {check.kind === 'loading' && <Spinner animation="border" role="status" aria-label="Loading" />}
        {check.kind === 'failed' && <p>This game&apos;s board cannot be loaded.</p>}
        {check.kind === 'pending' && (
          <>
            <p>The game is still on: the seed and the board are revealed when it ends.</p>
            <p>
              Published commitment: <code className="dond-hash">{check.data.commitment}</code>
            </p>
          </>
        )}
        {check.kind === 'done' && (
          <>
            <p className={`dond-verdict ${check.computed === check.data.commitment ? 'is-match' : 'is-mismatch'}`}>
              {check.computed === check.data.commitment
                ? 'match — the boxes were not moved during the game'
                : 'no match — this board is not the one committed to'}
            </p>
            <dl className="dond-proof">
              <dt>Published before the game (SHA-256)</dt>
              <dd>
                <code className="dond-hash">{check.data.commitment}</code>
              </dd>
              <dt>Computed in this browser</dt>
              <dd>
                <code className="dond-hash" data-testid="computed">
                  {check.computed}
                </code>
              </dd>
              <dt>Seed (hex)</dt>
              <dd>
                <code className="dond-hash">{check.data.seed}</code>
              </dd>
              <dt>Board, box 1 to 24</dt>
              <dd>
                <code className="dond-hash">{boardText(check.data.board!.map((a) => toCents(a)))}</code>
              </dd>
            </dl>
          </>
        )}
        <Link to={`/game/dealornodeal/${id}`}>Back to the game</Link>
      </div>
    </section>
  );
}
