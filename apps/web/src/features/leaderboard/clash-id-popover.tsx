/** The Clash Id popover of a board row (entry-parts.tsx loads it beside the board). */
import Button from 'react-bootstrap/Button';
import OverlayTrigger from 'react-bootstrap/OverlayTrigger';
import Popover from 'react-bootstrap/Popover';
import { FaIdCard, FaRegCopy } from 'react-icons/fa6';
import type { LeaderboardEntry } from '@kickback/common/http/leaderboards';
import { messages } from '@kickback/common/messages';
import { toast } from '../../lib/toast';

export default function ClashIdPopover({ entry, defaultShow }: { entry: LeaderboardEntry; defaultShow: boolean }) {
  const id = String(entry.clashId);
  const copy = () => {
    void navigator.clipboard?.writeText(id).then(
      () => toast.success(messages.copiedToClipboard),
      () => undefined,
    );
  };
  return (
    <OverlayTrigger
      trigger="click"
      rootClose
      placement="top"
      defaultShow={defaultShow}
      overlay={
        <Popover id={`clash-id-${entry.rank}`}>
          <Popover.Header as="h3">{messages.clashIdTitle}</Popover.Header>
          <Popover.Body className="d-flex align-items-center gap-2">
            <code className="fs-6">{id}</code>
            <Button size="sm" variant="outline-secondary" onClick={copy} aria-label="Copy Clash Id">
              <FaRegCopy aria-hidden />
            </Button>
          </Popover.Body>
        </Popover>
      }
    >
      {/* The same button as entry-parts.tsx's ClashIdToggle, which the trigger needs as an element. */}
      <button type="button" className="kb-clash-id" aria-label={`${messages.clashIdTitle} of ${entry.userName}`}>
        <FaIdCard aria-hidden />
      </button>
    </OverlayTrigger>
  );
}
