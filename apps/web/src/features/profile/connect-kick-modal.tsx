/**
 * Connect Kick Account: asks for a code, shows `!verify {code}` with a copy button and a countdown,
 * and watches the signed-in user (a ping every 2 s while open) so it turns to "linked" by itself
 * when the verify handler links the account from chat.
 */
import { useEffect, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import { toast } from 'react-toastify';
import { FaArrowUpRightFromSquare, FaCircleCheck, FaCopy } from 'react-icons/fa6';
import { verifyCommand } from '@kickback/common/http/accounts';
import { messages } from '@kickback/common/messages';
import { useAuth } from '../../shared/auth/auth-context';
import { useSite } from '../../shared/site-context';
import { useKickCode } from './api';

const POLL_MS = 2000;

function remaining(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

export function ConnectKickModal({ show, onClose }: { show: boolean; onClose(): void }) {
  return (
    <Modal show={show} onHide={onClose} centered aria-labelledby="connect-kick-title">
      <Modal.Header closeButton>
        <Modal.Title id="connect-kick-title">Connect Kick Account</Modal.Title>
      </Modal.Header>
      {/* Mounted while open: each opening starts with a fresh code. */}
      {show && <ConnectKickContent onClose={onClose} />}
    </Modal>
  );
}

function ConnectKickContent({ onClose }: { onClose(): void }) {
  const { user, refreshUser } = useAuth();
  const site = useSite();
  const [tick, setTick] = useState(() => Date.now());
  const linked = Boolean(user?.kickId);
  const wasLinked = useRef(linked);
  // A user already linked when the window opened needs no code.
  const [linkedAtOpen] = useState(linked);
  const kickCode = useKickCode(!linkedAtOpen);
  // While a new code is on its way the old one is gone.
  const code = kickCode.isFetching ? null : (kickCode.data ?? null);
  const failed = kickCode.isError && !kickCode.isFetching;
  // The countdown runs from the later of the last tick and the code's arrival.
  const now = Math.max(tick, kickCode.dataUpdatedAt);

  const newCode = () => void kickCode.refetch();

  // Watch for the link landing.
  useEffect(() => {
    if (linked) return;
    const id = window.setInterval(() => void refreshUser(), POLL_MS);
    return () => window.clearInterval(id);
  }, [linked, refreshUser]);

  useEffect(() => {
    if (linked && !wasLinked.current) toast.success(messages.kickLinked);
    wasLinked.current = linked;
  }, [linked]);

  // The countdown.
  useEffect(() => {
    if (!code || linked) return;
    const id = window.setInterval(() => setTick(Date.now()), 1000);
    return () => window.clearInterval(id);
  }, [code, linked]);

  const left = code ? new Date(code.expiresAt).getTime() - now : 0;
  const expired = code !== null && left <= 0;
  const command = code ? verifyCommand(code.key) : '';

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(command);
      toast.success(messages.copiedToClipboard);
    } catch {
      toast.error('Copying is blocked here: select the command and copy it yourself.');
    }
  };

  return (
    <>
      <Modal.Body>
        {linked ? (
          <div className="text-center py-3" role="status">
            <FaCircleCheck className="kb-accent mb-2" size={40} aria-hidden />
            <p className="fs-5 mb-1">Your Kick account is linked.</p>
            <p className="text-body-secondary mb-0">
              Kick: <strong>{user?.kickUsername}</strong>
            </p>
          </div>
        ) : failed ? (
          <Alert variant="danger" className="mb-0">
            No code could be made right now. Close this window and try again.
          </Alert>
        ) : !code ? (
          <div className="d-flex align-items-center gap-2 py-3">
            <Spinner animation="border" size="sm" aria-hidden />
            <span>Getting your code…</span>
          </div>
        ) : (
          <ol className="kb-connect-steps">
            <li>
              Open{' '}
              <a href={site.kickChannelUrl} target="_blank" rel="noreferrer">
                {site.streamerName}&apos;s Kick chat <FaArrowUpRightFromSquare aria-hidden size={12} />
              </a>{' '}
              while signed in to the Kick account you want to link.
            </li>
            <li>
              Send this message in the chat:
              <div className="kb-verify-command mt-2">
                <code aria-label="Verification command" data-testid="kick-verify-command">
                  {command}
                </code>
                <Button size="sm" variant="outline-secondary" onClick={() => void copy()} disabled={expired}>
                  <FaCopy aria-hidden className="me-1" />
                  Copy
                </Button>
              </div>
            </li>
            <li>
              {expired ? (
                <Alert variant="warning" className="mt-2 mb-0 d-flex align-items-center justify-content-between gap-2">
                  <span>This code has expired.</span>
                  <Button size="sm" variant="primary" onClick={newCode}>
                    Get a new code
                  </Button>
                </Alert>
              ) : (
                <span className="d-inline-flex align-items-center gap-2">
                  <Spinner animation="grow" size="sm" aria-hidden />
                  <span>
                    Waiting for your message… this window updates by itself. The code expires in{' '}
                    <strong className="font-monospace">{remaining(left)}</strong>.
                  </span>
                </span>
              )}
            </li>
          </ol>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant={linked ? 'primary' : 'outline-secondary'} onClick={onClose}>
          {linked ? 'Done' : 'Close'}
        </Button>
      </Modal.Footer>
    </>
  );
}
