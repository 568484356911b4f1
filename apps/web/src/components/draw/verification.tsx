/**
 * A provably fair draw checked in the browser (the giveaway's rolls, the raffles' draws): the
 * record's seed against the hash published before, the snapshot against its hash, and the winners
 * recomputed with Web Crypto by the same procedure the server ran (packages/common/giveaway/draw.ts).
 */
import { useEffect, useState } from 'react';
import { drawWinners, snapshotHashOf, type DrawCrypto } from '@kickback/common/giveaway/draw';
import type { RollRecord } from '@kickback/common/http/giveaway';
import './verification.css';

const utf8 = (text: string) => new TextEncoder().encode(text);
const hex = (buf: ArrayBuffer) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');

export const webDrawCrypto: DrawCrypto = {
  sha256Hex: async (text) => hex(await crypto.subtle.digest('SHA-256', utf8(text))),
  async hmacSha256(key, message) {
    const k = await crypto.subtle.importKey('raw', utf8(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    return new Uint8Array(await crypto.subtle.sign('HMAC', k, utf8(message)));
  },
};

export interface DrawCheck {
  seed: boolean;
  snapshot: boolean;
  winners: string[];
  match: boolean;
}

/** Recomputes a draw in the browser. */
export async function recomputeDraw(r: RollRecord): Promise<DrawCheck> {
  const seed = (await webDrawCrypto.sha256Hex(r.serverSeed)) === r.seedHash;
  const snapshot = (await snapshotHashOf(webDrawCrypto, r.snapshot)) === r.snapshotHash;
  const winners = await drawWinners(webDrawCrypto, r.serverSeed, r.snapshot, r.winnersWanted);
  return { seed, snapshot, winners, match: seed && snapshot && winners.join() === r.winners.join() };
}

/** The check of one record: the result line, the hashes, and the entries drawn from. */
export function DrawVerification({
  record,
  entryLabel,
  drawnLabel = ['winner', 'winners'],
}: {
  record: RollRecord;
  entryLabel: 'entries' | 'owners';
  drawnLabel?: readonly [string, string];
}) {
  const [checked, setChecked] = useState<{ for: RollRecord; check: DrawCheck } | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    recomputeDraw(record)
      .then((check) => live && setChecked({ for: record, check }))
      .catch((e: unknown) => live && setFailed(e instanceof Error ? e.message : 'Could not check the draw.'));
    return () => {
      live = false;
    };
  }, [record]);
  const check = checked && checked.for === record ? checked.check : null;
  const nameOf = (id: string) => record.snapshot.find((e) => e.kickUserId === id)?.username ?? id;
  return (
    <>
      {failed && <p className="text-danger">{failed}</p>}
      {check ? (
        <p className={`kb-verify-result ${check.match ? 'text-success' : 'text-danger'}`} data-testid="verify-result">
          {check.match ? 'match' : 'mismatch'}: recomputed {drawnLabel[check.winners.length > 1 ? 1 : 0]}{' '}
          {check.winners.map(nameOf).join(', ')}; the server announced {record.winnerNames.join(', ')}.
        </p>
      ) : (
        !failed && <p>Recomputing in your browser…</p>
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
        <summary>
          Eligible {entryLabel} ({record.snapshot.length})
        </summary>
        <ol className="small">
          {record.snapshot.map((e) => (
            <li key={e.kickUserId}>
              {e.username} ({e.kickUserId}) — {e.weight} ticket{e.weight > 1 ? 's' : ''}
            </li>
          ))}
        </ol>
      </details>
    </>
  );
}
