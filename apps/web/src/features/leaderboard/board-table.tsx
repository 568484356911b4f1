/** Rank 4 and on: #, User, Wagered, Reward. */
import Table from 'react-bootstrap/Table';
import type { LeaderboardEntry, RewardUnit } from '@kickback/common/http/leaderboards';
import { Avatar } from '../../components/ui/avatar';
import { ActiveMark, ClashIdButton, RewardText, wageredText } from './entry-parts';

export function BoardTable({ entries, unit }: { entries: LeaderboardEntry[]; unit: RewardUnit }) {
  if (entries.length === 0) return null;
  return (
    <div className="kb-board-table">
      <Table variant="dark" hover className="align-middle mb-0">
        <thead>
          <tr>
            <th scope="col" className="kb-col-rank">
              #
            </th>
            <th scope="col">User</th>
            <th scope="col" className="text-end">
              Wagered
            </th>
            <th scope="col" className="text-end">
              Reward
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <tr key={e.rank}>
              <td className="kb-col-rank">{e.rank}</td>
              <td>
                <div className="kb-table-user">
                  <Avatar url={e.avatarUrl} size={32} />
                  <span className="kb-name-text" title={e.userName}>
                    {e.userName}
                  </span>
                  <ActiveMark active={e.isActive} />
                  <ClashIdButton entry={e} />
                </div>
              </td>
              <td className="text-end kb-num">{wageredText(e.wageredAmount)}</td>
              <td className="text-end kb-num">
                <RewardText entry={e} unit={unit} />
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
    </div>
  );
}
