/**
 * /giveaway/verify/{rollId}: anyone can check a roll. The page fetches the roll's public record
 * and recomputes everything in the browser with Web Crypto, using the same documented procedure
 * as the server (packages/common/giveaway/draw.ts): the seed matches the hash published before the
 * roll, the snapshot matches its hash, and the draw gives the same winners.
 */
import { useParams } from 'react-router';
import { giveawayEndpoints } from '@kickback/common/http/giveaway';
import { DrawVerification } from '../../components/draw/verification';
import { ApiError } from '../../lib/api';
import { useEndpointQuery } from '../../lib/query';

export default function GiveawayVerifyPage() {
  const { rollId = '' } = useParams();
  // A roll's record never changes: read once, never stale.
  const roll = useEndpointQuery(giveawayEndpoints.roll, { params: { rollId } }, { staleTime: Infinity });
  const record = roll.data ?? null;
  const error = roll.error
    ? roll.error instanceof ApiError
      ? roll.error.serverMessage
      : 'Could not load the roll.'
    : null;
  return (
    <div className="container py-4">
      <h1 className="h3">Verify a giveaway draw</h1>
      {error && <p className="text-danger">{error}</p>}
      {!record && !error && <p>Loading…</p>}
      {record && (
        <>
          <p className="text-body-secondary">
            Roll {record.rollId}: seed hash published {new Date(record.committedAt).toLocaleString()}, rolled{' '}
            {new Date(record.rolledAt).toLocaleString()} among {record.snapshot.length} eligible entries.
          </p>
          <DrawVerification record={record} entryLabel="entries" />
          <p className="small text-body-secondary mt-3">
            The procedure: the snapshot sorted by Kick user id and hashed; for each winner, HMAC-SHA256(seed,
            "snapshotHash:i:attempt"), its first 6 bytes as a number, rejection sampling over the total weight, and the
            running weight sum picks the entry. See docs/features/giveaway.md, "How a draw is verified".
          </p>
        </>
      )}
    </div>
  );
}
