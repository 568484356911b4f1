/** The latest Deal or No Deal games for admins (status, player, prize, link), beside Split or Steal's. */
import { Link } from 'react-router';
import Table from 'react-bootstrap/Table';
import { FaLock } from 'react-icons/fa6';
import { statusText } from '@kickback/common/games/deal-or-no-deal';
import { formatPrize } from '../../lib/format';
import { useRecentDealOrNoDeal } from './api';

export function RecentDealOrNoDealGames() {
  const query = useRecentDealOrNoDeal();
  const games = query.data ?? (query.isError ? [] : null);
  if (!games) return null;
  return (
    <section className="mt-5" aria-labelledby="dond-recent-title">
      <h2 id="dond-recent-title" className="h5">
        Recent Deal or No Deal games
      </h2>
      {games.length === 0 ? (
        <p className="text-body-secondary">No games yet.</p>
      ) : (
        <Table responsive hover variant="dark" className="align-middle">
          <thead>
            <tr>
              <th>Created</th>
              <th>Player</th>
              <th className="text-end">Prize</th>
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
                  {g.player ?? 'Deleted user'}
                </td>
                <td className="text-end">{formatPrize(g.prize, 'USD')}</td>
                <td>
                  {g.status === 3
                    ? 'Opening boxes'
                    : statusText({ status: g.status, remainingBoxCountToOffer: 0 }, g.player ?? 'the player')}
                </td>
                <td className="text-end">
                  <Link to={`/game/dealornodeal/${g.gameId}`}>Open</Link>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </section>
  );
}
