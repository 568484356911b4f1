import Badge from 'react-bootstrap/Badge';
import { PENDING_VERIFICATION, type PartnerLinkStateName } from '@kickback/common/http/partner-links';

/** A partner link's state: Verified, Pending verification (claimed) or Rejected. */
export function LinkStateBadge({ state }: { state: PartnerLinkStateName }) {
  if (state === 'verified') return <Badge bg="success">Verified</Badge>;
  if (state === 'rejected' || state === 'unlinked') return <Badge bg="danger">Rejected</Badge>;
  return (
    <Badge bg="warning" text="dark">
      {PENDING_VERIFICATION}
    </Badge>
  );
}
