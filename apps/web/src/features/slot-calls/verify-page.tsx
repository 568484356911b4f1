/** /calls/picks/{id}/verify: anyone can check a random pick of the slot call queue, recomputed in the browser. */
import { Link, useParams } from 'react-router';
import { slotCallEndpoints } from '@kickback/common/http/slot-calls';
import { DrawVerification } from '../../components/draw/verification';
import { ApiError } from '../../lib/api';
import { useEndpointQuery } from '../../lib/query';

export default function PickVerifyPage() {
  const { id = '' } = useParams();
  // A pick's record never changes: read once, never stale.
  const pick = useEndpointQuery(slotCallEndpoints.pick, { params: { id } }, { staleTime: Infinity, retry: false });
  const record = pick.data ?? null;
  const error = pick.error
    ? pick.error instanceof ApiError
      ? pick.error.serverMessage
      : 'Could not load the pick.'
    : null;
  return (
    <div className="container py-4">
      <h1 className="h3">Verify a slot call pick</h1>
      {error && <p className="text-danger">{error}</p>}
      {!record && !error && <p>Loading…</p>}
      {record && (
        <>
          <p className="text-body-secondary">
            <Link to="/calls">The slot calls</Link>: seed hash published {new Date(record.committedAt).toLocaleString()}
            , picked {new Date(record.rolledAt).toLocaleString()} among the {record.snapshot.length} calls then waiting,
            each with one chance.
          </p>
          <DrawVerification record={record} entryLabel="entries" />
          <p className="small text-body-secondary mt-3">
            The procedure is the giveaway&apos;s: the snapshot (one entry per waiting call, by call id) sorted and
            hashed, then HMAC-SHA256(seed, &quot;snapshotHash:0:attempt&quot;) with rejection sampling picks the call. A
            new seed is committed for the next pick.
          </p>
        </>
      )}
    </div>
  );
}
