import Badge from 'react-bootstrap/Badge';
import type { FulfilmentStatus } from '@kickback/common/http/fulfilment';

const looks: Record<FulfilmentStatus, { bg: string; text: string; ink?: 'dark' }> = {
  pending: { bg: 'warning', text: 'Pending', ink: 'dark' },
  delivered: { bg: 'success', text: 'Delivered' },
  rejected: { bg: 'danger', text: 'Rejected' },
};

/** Pending / Delivered / Rejected, as the buyer and the admin see it. */
export function StatusBadge({ status }: { status: FulfilmentStatus }) {
  const look = looks[status];
  return (
    <Badge bg={look.bg} {...(look.ink ? { text: look.ink } : {})} data-status={status}>
      {look.text}
    </Badge>
  );
}
