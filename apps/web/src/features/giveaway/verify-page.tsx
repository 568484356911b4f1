/**
 * /giveaway/verify/{rollId}: anyone can check a roll. The page fetches the roll's public record
 * and recomputes everything in the browser with Web Crypto, using the same documented procedure
 * as the server (packages/common/giveaway/draw.ts): the seed matches the hash published before the
 * roll, the snapshot matches its hash, and the draw gives the same winners.
 */
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { drawWinners, snapshotHashOf, type DrawCrypto } from '@kickback/common/giveaway/draw';
import { giveawayEndpoints, type RollRecord } from '@kickback/common/http/giveaway';
import { ApiError } from '../../lib/api';
import { useEndpointQuery } from '../../lib/query';
import './giveaway.css';

const utf8 = (text: string) => new TextEncoder().encode(text);
const hex = (buf: ArrayBuffer) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');

export const webDrawCrypto: DrawCrypto = {
  sha256Hex: async (text) => hex(await crypto.subtle.digest('SHA-256', utf8(text))),
  async hmacSha256(key, message) {
    const k = await crypto.subtle.importKey('raw', utf8(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    return new Uint8Array(await crypto.subtle.sign('HMAC', k, utf8(message)));
  },
};

interface Check {
  seed: boolean;
  snapshot: boolean;
  winners: string[];
  match: boolean;
}

/** Recomputes the draw of a roll in the browser. */
async function recompute(r: RollRecord): Promise<Check> {
  const seed = (await webDrawCrypto.sha256Hex(r.serverSeed)) === r.seedHash;
  const snapshot = (await snapshotHashOf(webDrawCrypto, r.snapshot)) === r.snapshotHash;
  const winners = await drawWinners(webDrawCrypto, r.serverSeed, r.snapshot, r.winnersWanted);
  return { seed, snapshot, winners, match: seed && snapshot && winners.join() === r.winners.join() };
}

export default function GiveawayVerifyPage() {
  const { rollId = '' } = useParams();
  // A roll's record never changes: read once, never stale.
  const roll = useEndpointQuery(giveawayEndpoints.roll, { params: { rollId } }, { staleTime: Infinity });
  const record = roll.data ?? null;
  const [checked, setChecked] = useState<{ for: RollRecord; check: Check } | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const error =
    failed ??
    (roll.error ? (roll.error instanceof ApiError ? roll.error.serverMessage : 'Could not load the roll.') : null);

  useEffect(() => {
    if (!record) return;
    let live = true;
    recompute(record)
      .then((check) => live && setChecked({ for: record, check }))
      .catch((e: unknown) => live && setFailed(e instanceof Error ? e.message : 'Could not check the roll.'));
    return () => {
      live = false;
    };
  }, [record]);

  const check = checked && checked.for === record ? checked.check : null;
  const nameOf = (id: string) => record?.snapshot.find((e) => e.kickUserId === id)?.username ?? id;
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
          {check ? (
            <p
              className={`kb-verify-result ${check.match ? 'text-success' : 'text-danger'}`}
              data-testid="verify-result"
            >
              {check.match ? 'match' : 'mismatch'}: recomputed winner{check.winners.length > 1 ? 's' : ''}{' '}
              {check.winners.map(nameOf).join(', ')}; the server announced {record.winnerNames.join(', ')}.
            </p>
          ) : (
            <p>Recomputing in your browser…</p>
          )}
          <dl className="small">
            <dt>SHA-256(seed) = published hash</dt>
            <dd>
              {check ? (check.seed ? 'yes' : 'NO') : '…'} — <code>{record.seedHash}</code>
            </dd>
            <dt>Revealed seed</dt>
            <dd>
              <code>{record.serverSeed}</code>
            </dd>
            <dt>Snapshot hash</dt>
            <dd>
              {check ? (check.snapshot ? 'yes' : 'NO') : '…'} — <code>{record.snapshotHash}</code>
            </dd>
          </dl>
          <details>
            <summary>Eligible entries ({record.snapshot.length})</summary>
            <ol className="small">
              {record.snapshot.map((e) => (
                <li key={e.kickUserId}>
                  {e.username} ({e.kickUserId}) — {e.weight} ticket{e.weight > 1 ? 's' : ''}
                </li>
              ))}
            </ol>
          </details>
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
