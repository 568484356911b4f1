/**
 * My activity: wager points held for partner ids that are not verified yet ("pending
 * verification"). They reach the ledger below once the id is verified, never if it is rejected.
 */
import Table from 'react-bootstrap/Table';
import Button from 'react-bootstrap/Button';
import { PENDING_VERIFICATION } from '@kickback/common/http/partner-links';
import { formatAmount } from '../../lib/format';
import { useProfileModal } from '../../shared/profile-modal-context';
import { LinkStateBadge } from '../../components/ui/link-state-badge';
import { useMyPartnerLinks } from '../../lib/partner-links';

export function PendingVerification() {
  const { data } = useMyPartnerLinks();
  const { openProfile } = useProfileModal();
  const pending = data?.links.filter((l) => l.state === 'claimed') ?? [];
  if (pending.length === 0 && !(data && data.pointsDebt > 0)) return null;
  return (
    <>
      <h2 className="h5 mt-4 mb-2">{PENDING_VERIFICATION}</h2>
      <p className="small text-body-secondary mb-2">
        Points your partner ids earned before they were verified. They are credited when the id is verified (see{' '}
        <Button variant="link" size="sm" className="p-0 align-baseline" onClick={openProfile}>
          Profile Settings
        </Button>{' '}
        for how), and dropped if it is rejected.
      </p>
      {pending.length > 0 && (
        <div className="kb-card p-0 mb-2 table-responsive" tabIndex={0} role="region" aria-label="Pending verification">
          <Table variant="dark" className="align-middle mb-0" data-testid="pending-verification">
            <thead>
              <tr>
                <th>Since</th>
                <th>Partner id</th>
                <th>Status</th>
                <th className="text-end">Points held</th>
              </tr>
            </thead>
            <tbody>
              {pending.map((l) => (
                <tr key={l.id}>
                  <td className="text-nowrap">{new Date(l.claimedAt).toLocaleString()}</td>
                  <td>
                    {l.label} <code>{l.value}</code>
                  </td>
                  <td>
                    <LinkStateBadge state={l.state} />
                  </td>
                  <td className="text-end text-nowrap fw-semibold">{formatAmount(l.heldPoints)} pts</td>
                </tr>
              ))}
            </tbody>
          </Table>
        </div>
      )}
      {data && data.pointsDebt > 0 && (
        <p className="small text-warning">
          You owe {formatAmount(data.pointsDebt)} points (a partner id moved to its rightful owner); your next earnings
          pay it off first.
        </p>
      )}
    </>
  );
}
