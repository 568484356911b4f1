/** Past predictions on the admin page: pools per answer and how each ended. */
import Table from 'react-bootstrap/Table';
import type { PredictionSummary } from '@kickback/common/http/prediction';
import { formatAmount } from '../../lib/format';

const ended: Record<PredictionSummary['status'], string> = {
  1: 'Active',
  2: 'Resolved',
  3: 'Bets closed',
  4: 'Cancelled',
};

export function PastPredictions({ list }: { list: PredictionSummary[] }) {
  if (list.length === 0) return <p className="text-body-secondary">No predictions yet.</p>;
  return (
    <div className="table-responsive" tabIndex={0} role="region" aria-label="Past predictions">
      <Table hover variant="dark" className="align-middle" aria-label="Past predictions">
        <thead>
          <tr>
            <th>Opened</th>
            <th>Question</th>
            <th>Answers (bettors · points)</th>
            <th className="text-end">Pool</th>
            <th>Result</th>
          </tr>
        </thead>
        <tbody>
          {list.map((p) => (
            <tr key={p.id}>
              <td>{new Date(p.createdAt).toLocaleString([], { dateStyle: 'short', timeStyle: 'short' })}</td>
              <td>{p.question}</td>
              <td>
                {p.answers.map((a) => (
                  <div key={a.id} className={a.id === p.resultAnswerId ? 'fw-bold' : undefined}>
                    {a.id}. {a.text} — {a.participantCount} · {formatAmount(a.points)}
                  </div>
                ))}
              </td>
              <td className="text-end">
                {formatAmount(p.pool)}
                {p.remainder !== null && p.remainder > 0 && (
                  <div className="small text-body-secondary">remainder {formatAmount(p.remainder)}</div>
                )}
              </td>
              <td>
                {ended[p.status]}
                {p.status === 2 && p.resultAnswerId !== null && ` (answer ${p.resultAnswerId})`}
                {p.hidden && <span className="text-body-secondary"> · hidden</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
    </div>
  );
}
