/** /battle/{id}/verify: anyone can check a battle's bracket draw, recomputed in the browser. */
import { Link, useParams } from 'react-router';
import { battleEndpoints } from '@kickback/common/http/battles';
import { DrawVerifyPage } from '../../components/draw/verify-page';
import { useEndpointQuery } from '../../lib/query';
import { countOf } from '@kickback/common/plural';

export default function BattleVerifyPage() {
  const { id = '' } = useParams();
  const draw = useEndpointQuery(battleEndpoints.draw, { params: { id } }, { staleTime: Infinity, retry: false });
  return (
    <DrawVerifyPage
      title="Verify a battle's bracket"
      draw={draw}
      noun="draw"
      drawnLabel={['seat', 'seats in order']}
      intro={(record) => (
        <>
          <Link to={`/battle/${id}`}>The battle</Link>: seed hash published{' '}
          {new Date(record.committedAt).toLocaleString()} when it was created, bracket drawn{' '}
          {new Date(record.rolledAt).toLocaleString()}: {record.winnersWanted} of{' '}
          {countOf(record.snapshot.length, 'entrant')}, in seating order.
        </>
      )}
      procedure={
        <>
          The procedure is the giveaway&apos;s: the entrants (one entry each, by account id; any excluded or banned
          since entering left out) sorted and hashed at the draw; for each seat in order, HMAC-SHA256(seed,
          &quot;snapshotHash:i:attempt&quot;) with rejection sampling picks an entrant, who leaves the draw. The first
          half drawn take the left side of the first-round matches, the rest the right side.
        </>
      }
    />
  );
}
