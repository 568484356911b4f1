/** /calls/picks/{id}/verify: anyone can check a random pick of the slot call queue, recomputed in the browser. */
import { Link, useParams } from 'react-router';
import { slotCallEndpoints } from '@kickback/common/http/slot-calls';
import { DrawVerifyPage } from '../../components/draw/verify-page';
import { useEndpointQuery } from '../../lib/query';
import { countOf } from '@kickback/common/plural';

export default function PickVerifyPage() {
  const { id = '' } = useParams();
  // A pick's record never changes: read once, never stale.
  const pick = useEndpointQuery(slotCallEndpoints.pick, { params: { id } }, { staleTime: Infinity, retry: false });
  return (
    <DrawVerifyPage
      title="Verify a slot call pick"
      draw={pick}
      noun="pick"
      intro={(record) => (
        <>
          <Link to="/calls">The slot calls</Link>: seed hash published {new Date(record.committedAt).toLocaleString()},
          picked {new Date(record.rolledAt).toLocaleString()} among the {countOf(record.snapshot.length, 'call')} then
          waiting, each with one chance.
        </>
      )}
      procedure={
        <>
          The procedure is the giveaway&apos;s: the snapshot (one entry per waiting call, by call id) sorted and hashed,
          then HMAC-SHA256(seed, &quot;snapshotHash:0:attempt&quot;) with rejection sampling picks the call. A new seed
          is committed for the next pick.
        </>
      }
    />
  );
}
