/**
 * The result modal (docs/product.md#discord-message-sender-admin): "Users Sent Message" with the
 * Succeded list and the Failed list (the contract's spelling), each user with their Discord name,
 * failures with the reason.
 */
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { FaCircleCheck, FaCircleXmark } from 'react-icons/fa6';
import { recipientReasonText, type BroadcastRecipient, type BroadcastResult } from '@kickback/common/http/discord';
import { unreachedSummary } from './progress';

function RecipientList({ items, failed }: { items: readonly BroadcastRecipient[]; failed: boolean }) {
  if (items.length === 0) return <p className="text-body-secondary small mb-0">Nobody.</p>;
  return (
    <ul className="kb-recipient-list list-unstyled mb-0">
      {items.map((r) => (
        <li key={`${r.userId ?? ''}:${r.discordId ?? ''}`} className="d-flex align-items-center gap-2">
          {failed ? (
            <FaCircleXmark className="kb-failed flex-shrink-0" aria-hidden="true" />
          ) : (
            <FaCircleCheck className="kb-sent flex-shrink-0" aria-hidden="true" />
          )}
          <span className="kb-username">{r.username}</span>
          {r.discordUsername && <small className="text-body-secondary text-truncate">@{r.discordUsername}</small>}
          {failed && r.reason && (
            <Badge bg={r.status === 'skipped' ? 'secondary' : 'danger'} className="ms-auto fw-normal">
              {recipientReasonText[r.reason]}
              {r.status === 'skipped' ? ' (skipped)' : ''}
            </Badge>
          )}
        </li>
      ))}
    </ul>
  );
}

export function BroadcastResultModal({ result, onClose }: { result: BroadcastResult | null; onClose(): void }) {
  return (
    <Modal show={result !== null} onHide={onClose} centered scrollable aria-labelledby="kb-broadcast-result-title">
      <Modal.Header closeButton closeVariant="white">
        <Modal.Title id="kb-broadcast-result-title">Users Sent Message</Modal.Title>
      </Modal.Header>
      {result && (
        <Modal.Body>
          {result.error && <Alert variant="danger">{result.error}</Alert>}
          {unreachedSummary(result.failed) && (
            <Alert variant="warning" className="kb-unreached py-2">
              {unreachedSummary(result.failed)}.
            </Alert>
          )}
          <section aria-labelledby="kb-succeeded" className="mb-4">
            <h2 id="kb-succeeded" className="h6 d-flex align-items-center gap-2">
              Succeded <Badge bg="success">{result.users.length}</Badge>
            </h2>
            <RecipientList items={result.users} failed={false} />
          </section>
          <section aria-labelledby="kb-failed">
            <h2 id="kb-failed" className="h6 d-flex align-items-center gap-2">
              Failed <Badge bg={result.failed.length > 0 ? 'danger' : 'secondary'}>{result.failed.length}</Badge>
            </h2>
            <RecipientList items={result.failed} failed />
            {result.failed.some((r) => r.reason === 'dms_closed') && (
              <p className="small text-body-secondary mt-2 mb-0">
                Discord refuses a bot's messages (error 50007) to users who closed their DMs and to users who share no
                server with the bot. They are not messaged again until they link Discord anew, so the bot stays in good
                standing with Discord.
              </p>
            )}
          </section>
        </Modal.Body>
      )}
      <Modal.Footer>
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
