/** /battle/{id}/verify: anyone can check a battle's bracket draw, recomputed in the browser. */
import { Link, useParams } from 'react-router';
import { battleEndpoints } from '@kickback/common/http/battles';
import { DrawVerification } from '../../components/draw/verification';
import { ApiError } from '../../lib/api';
import { useEndpointQuery } from '../../lib/query';

export default function BattleVerifyPage() {
  const { id = '' } = useParams();
  const draw = useEndpointQuery(battleEndpoints.draw, { params: { id } }, { staleTime: Infinity, retry: false });
  const record = draw.data ?? null;
  const error = draw.error
    ? draw.error instanceof ApiError
      ? draw.error.serverMessage
      : 'Could not load the draw.'
    : null;
  return (
    <div className="container py-4">
      <h1 className="h3">Verify a battle&apos;s bracket</h1>
      {error && <p className="text-danger">{error}</p>}
      {!record && !error && <p>Loading…</p>}
      {record && (
        <>
          <p className="text-body-secondary">
            <Link to={`/battle/${id}`}>The battle</Link>: seed hash published{' '}
            {new Date(record.committedAt).toLocaleString()} when it was created, bracket drawn{' '}
            {new Date(record.rolledAt).toLocaleString()}: {record.winnersWanted} of {record.snapshot.length} entrants,
            in seating order.
          </p>
          <DrawVerification record={record} entryLabel="entries" />
          <p className="small text-body-secondary mt-3">
            The procedure is the giveaway&apos;s: the entrants (one entry each, by account id) sorted and hashed when
            registration closed; for each seat in order, HMAC-SHA256(seed, &quot;snapshotHash:i:attempt&quot;) with
            rejection sampling picks an entrant, who leaves the draw. The first half drawn take the left side of the
            first-round matches, the rest the right side.
          </p>
        </>
      )}
    </div>
  );
}
