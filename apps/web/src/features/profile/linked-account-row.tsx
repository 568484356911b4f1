import type { ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import { FaCircleCheck, FaCircleExclamation } from 'react-icons/fa6';

interface Props {
  icon: ReactNode;
  service: string;
  /** The linked account's name, or null when nothing is linked. */
  linkedAs: string | null;
  /** The contract's text for a missing link ("You havent linked your kick"). */
  missingText: string;
  linkLabel: string;
  onLink(): void;
  onUnlink(): void;
  busy: boolean;
}

/** One linked-account row: service, status, Link (disabled once linked) and Unlink. */
export function LinkedAccountRow({ icon, service, linkedAs, missingText, linkLabel, onLink, onUnlink, busy }: Props) {
  const linked = linkedAs !== null;
  return (
    <div className="kb-account-row">
      <div className="kb-account-icon" aria-hidden>
        {icon}
      </div>
      <div className="flex-grow-1 min-w-0">
        <div className="fw-semibold">{service}</div>
        {linked ? (
          <div className="small kb-account-linked">
            <FaCircleCheck aria-hidden className="me-1" />
            Linked as <strong className="text-break">{linkedAs}</strong>
          </div>
        ) : (
          <div className="small text-danger-emphasis kb-account-missing">
            <FaCircleExclamation aria-hidden className="me-1" />
            {missingText}
          </div>
        )}
      </div>
      <div className="d-flex gap-2 flex-shrink-0">
        <Button size="sm" variant="primary" onClick={onLink} disabled={linked || busy}>
          {linkLabel}
        </Button>
        {linked && (
          <Button
            size="sm"
            variant="outline-secondary"
            onClick={onUnlink}
            disabled={busy}
            aria-label={`Unlink ${service}`}
          >
            Unlink
          </Button>
        )}
      </div>
    </div>
  );
}
