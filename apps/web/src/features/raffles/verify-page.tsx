/** /raffles/{id}/verify: anyone can check a raffle's draw, recomputed in the browser. */
import { Link, useParams } from 'react-router';
import { raffleEndpoints } from '@kickback/common/http/raffles';
import { DrawVerifyPage } from '../../components/draw/verify-page';
import { useEndpointQuery } from '../../lib/query';

export default function RaffleVerifyPage() {
  const { id = '' } = useParams();
  // A draw's record never changes: read once, never stale.
  const draw = useEndpointQuery(raffleEndpoints.draw, { params: { id } }, { staleTime: Infinity, retry: false });
  return (
    <DrawVerifyPage
      title="Verify a raffle draw"
      draw={draw}
      noun="draw"
      entryLabel="owners"
      intro={(record) => (
        <>
          <Link to={`/raffles/${id}`}>The raffle</Link>: seed hash published{' '}
          {new Date(record.committedAt).toLocaleString()} when it opened, drawn{' '}
          {new Date(record.rolledAt).toLocaleString()} among {record.snapshot.length} ticket owners, each weighted by
          their tickets.
        </>
      )}
      procedure={
        <>
          The procedure is the giveaway&apos;s: the snapshot (one entry per ticket owner, by account id, weighted by
          tickets) sorted and hashed at the close; for each prize in order, HMAC-SHA256(seed,
          &quot;snapshotHash:i:attempt&quot;), rejection sampling over the tickets left, and the running ticket sum
          picks the owner, who leaves the draw.
        </>
      }
    />
  );
}
