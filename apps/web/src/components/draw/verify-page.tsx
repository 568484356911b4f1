/**
 * The page that checks one provably fair draw in the browser (a giveaway roll, a raffle draw, a
 * battle's bracket, a slot call pick): the record read once (it never changes), what was drawn and
 * when, the check itself (./verification), and the procedure in words.
 */
import type { ReactNode } from 'react';
import type { RollRecord } from '@kickback/common/http/giveaway';
import { ApiError } from '../../lib/api';
import { DrawVerification } from './verification';

export function DrawVerifyPage<R extends RollRecord>({
  title,
  draw,
  noun,
  intro,
  procedure,
  entryLabel = 'entries',
  drawnLabel,
}: {
  title: string;
  /** The record's query. */
  draw: { data?: R; error: unknown };
  /** What was drawn, for the error when it cannot be read: "roll", "draw", "pick". */
  noun: string;
  /** What was drawn, when, among how many. */
  intro(record: R): ReactNode;
  /** The procedure, in words. */
  procedure: ReactNode;
  entryLabel?: 'entries' | 'owners';
  /** What the drawn are called (one, many): winners unless told (a battle draws seats). */
  drawnLabel?: readonly [string, string];
}) {
  const record = draw.data ?? null;
  const error = draw.error
    ? draw.error instanceof ApiError
      ? draw.error.serverMessage
      : `Could not load the ${noun}.`
    : null;
  return (
    <div className="container py-4">
      <h1 className="h3">{title}</h1>
      {error && <p className="text-danger">{error}</p>}
      {!record && !error && <p>Loading…</p>}
      {record && (
        <>
          <p className="text-body-secondary">{intro(record)}</p>
          <DrawVerification record={record} entryLabel={entryLabel} {...(drawnLabel ? { drawnLabel } : {})} />
          <p className="small text-body-secondary mt-3">{procedure}</p>
        </>
      )}
    </div>
  );
}
