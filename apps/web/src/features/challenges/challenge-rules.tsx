import { useId, useState } from 'react';
import Collapse from 'react-bootstrap/Collapse';
import { FaChevronDown, FaListCheck } from 'react-icons/fa6';

/** The collapsible Rules list (docs/product.md#site-constants-and-limits). */
export function ChallengeRules({ streamerName }: { streamerName: string }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <div className="kb-challenge-rules">
      <button
        type="button"
        className="kb-challenge-rules-toggle"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
      >
        <FaListCheck aria-hidden /> Rules
        <FaChevronDown aria-hidden className={open ? 'kb-rotate' : undefined} />
      </button>
      <Collapse in={open}>
        <div id={id}>
          <ol className="kb-challenge-rules-list">
            <li>You must be on {streamerName}&rsquo;s code on the respective site when you play for a challenge.</li>
            <li>
              Bet sizes are in USD: a bet size of <strong>1.40</strong> is needed for a <strong>1.36</strong> rate.
            </li>
            <li>A prize must be claimed within 3 days of the win, or it is forfeited.</li>
          </ol>
        </div>
      </Collapse>
    </div>
  );
}
