/**
 * /giveaway/verify/{rollId}: anyone can check a roll. The page fetches the roll's public record
 * and recomputes everything in the browser with Web Crypto, using the same documented procedure
 * as the server (packages/common/giveaway/draw.ts): the seed matches the hash published before the
 * roll, the snapshot matches its hash, and the draw gives the same winners.
 */
import { useParams } from 'react-router';
import { giveawayEndpoints } from '@kickback/common/http/giveaway';
import { DrawVerifyPage } from '../../components/draw/verify-page';
import { useEndpointQuery } from '../../lib/query';

export default function GiveawayVerifyPage() {
  const { rollId = '' } = useParams();
  // A roll's record never changes: read once, never stale.
  const roll = useEndpointQuery(giveawayEndpoints.roll, { params: { rollId } }, { staleTime: Infinity });
  return (
    <DrawVerifyPage
      title="Verify a giveaway draw"
      draw={roll}
      noun="roll"
      intro={(record) => (
        <>
          Roll {record.rollId}: seed hash published {new Date(record.committedAt).toLocaleString()}, rolled{' '}
          {new Date(record.rolledAt).toLocaleString()} among {record.snapshot.length} eligible entries.
        </>
      )}
      procedure={
        <>
          The procedure: the snapshot sorted by Kick user id and hashed; for each winner, HMAC-SHA256(seed,
          "snapshotHash:i:attempt"), its first 6 bytes as a number, rejection sampling over the total weight, and the
          running weight sum picks the entry. See docs/features/giveaway.md, "How a draw is verified".
        </>
      }
    />
  );
}
