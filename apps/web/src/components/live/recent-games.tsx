/**
 * The latest games of a live game on its admin create page (docs/architecture.md#the-live-game-kit):
 * when, who plays, the amount, the status, and a link back to the game, newest first. A failed load
 * shows an empty list.
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import Table from 'react-bootstrap/Table';
import { FaLock } from 'react-icons/fa6';

export interface RecentGame {
  gameId: string;
  createdAt: string;
  isPrivate: boolean;
}

export interface RecentGamesProps<G extends RecentGame> {
  /** The recent-games query (lib/query's useEndpointQuery). */
  query: { data?: G[]; isError: boolean };
  /** The heading's id (the section is labelled by it). */
  id: string;
  title: string;
  /** The players column: its heading and each game's cell (after the private lock). */
  players: readonly [string, (game: G) => ReactNode];
  /** The amount column (right-aligned). */
  amount: readonly [string, (game: G) => ReactNode];
  status(game: G): ReactNode;
  href(gameId: string): string;
}

export function RecentGames<G extends RecentGame>({
  query,
  id,
  title,
  players,
  amount,
  status,
  href,
}: RecentGamesProps<G>) {
  const games = query.data ?? (query.isError ? [] : null);
  if (!games) return null;
  return (
    <section className="mt-5" aria-labelledby={id}>
      <h2 id={id} className="h5">
        {title}
      </h2>
      {games.length === 0 ? (
        <p className="text-body-secondary">No games yet.</p>
      ) : (
        <div className="table-responsive" tabIndex={0} role="region" aria-labelledby={id}>
          <Table hover variant="dark" className="align-middle">
            <thead>
              <tr>
                <th>Created</th>
                <th>{players[0]}</th>
                <th className="text-end">{amount[0]}</th>
                <th>Status</th>
                <th>
                  <span className="visually-hidden">Open</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {games.map((g) => (
                <tr key={g.gameId}>
                  <td>{new Date(g.createdAt).toLocaleString([], { dateStyle: 'short', timeStyle: 'short' })}</td>
                  <td>
                    {g.isPrivate && <FaLock aria-label="Private" className="me-1" />}
                    {players[1](g)}
                  </td>
                  <td className="text-end">{amount[1](g)}</td>
                  <td>{status(g)}</td>
                  <td className="text-end">
                    <Link to={href(g.gameId)}>Open</Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        </div>
      )}
    </section>
  );
}
