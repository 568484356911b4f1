/** The latest Split or Steal games on the admin create page, so a host can get back to one. */
import { Link } from 'react-router';
import Table from 'react-bootstrap/Table';
import { FaLock } from 'react-icons/fa6';
import { statusText } from '@kickback/common/games/split-or-steal';
import { formatAmount } from '../../lib/format';
import { useRecentSplitOrSteal } from './api';

export function RecentGames() {
  const query = useRecentSplitOrSteal();
  const games = query.data ?? (query.isError ? [] : null);
  if (!games) return null;
  return (
    <section className="mt-5" aria-labelledby="sos-recent-title">
      <h2 id="sos-recent-title" className="h5">
        Recent games
      </h2>
      {games.length === 0 ? (
        <p className="text-body-secondary">No games yet.</p>
      ) : (
        <Table responsive hover variant="dark" className="align-middle">
          <thead>
            <tr>
              <th>Created</th>
              <th>Players</th>
              <th className="text-end">Reward</th>
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
                  {g.player1 ?? 'Open seat'} vs {g.player2 ?? 'Open seat'}
                </td>
                <td className="text-end">{formatAmount(g.reward)}</td>
                <td>{statusText(g.status)}</td>
                <td className="text-end">
                  <Link to={`/game/splitorsteal/${g.gameId}`}>Open</Link>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </section>
  );
}
