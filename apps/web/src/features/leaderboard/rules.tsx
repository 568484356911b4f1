/** The collapsible Rules list: the Roobet contribution rules on site 6, the common rules elsewhere. */
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Collapse from 'react-bootstrap/Collapse';
import { FaChevronDown, FaScaleBalanced } from 'react-icons/fa6';
import { messages } from '@kickback/common/messages';

export function rulesFor(site: number): string[] {
  return site === 6
    ? [messages.roobetRuleRtp, messages.roobetRuleGames]
    : [messages.ruleOnCodeAtEnd, messages.ruleWagerAbuse];
}

export function Rules({ site }: { site: number }) {
  const [open, setOpen] = useState(false);
  return (
    <section className="kb-rules">
      <Button
        variant="link"
        className="kb-rules-toggle"
        onClick={() => setOpen(!open)}
        aria-expanded={open}
        aria-controls="kb-rules-list"
      >
        <FaScaleBalanced aria-hidden className="me-2" />
        Rules
        <FaChevronDown aria-hidden className={`ms-2 kb-chevron${open ? ' is-open' : ''}`} />
      </Button>
      <Collapse in={open}>
        <div id="kb-rules-list">
          <ul className="kb-rules-list">
            {rulesFor(site).map((rule) => (
              <li key={rule}>{rule}</li>
            ))}
          </ul>
        </div>
      </Collapse>
    </section>
  );
}
