/** The 18+ gate's question (age-gate.tsx shows it; docs/features/sign-in-and-age-gate.md#the-18-gate). */
import type { KeyboardEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from '../../i18n/i18n';

/**
 * The gate's text as the site ships it (the server's default, apps/server's config): shown in the
 * viewer's language. A text an admin wrote is shown as written.
 */
export const DEFAULT_GATE_TEXT =
  'This site is about gambling streams and partner casino sites. Confirm that you are 18 or older and that gambling sites are allowed where you live.';

/** Keeps Tab and Shift+Tab cycling inside the dialog (the page behind is not reachable). */
function trapTab(event: KeyboardEvent<HTMLElement>) {
  if (event.key !== 'Tab') return;
  const focusable = [
    ...event.currentTarget.querySelectorAll<HTMLElement>('button, [href], input, textarea, select, [tabindex]'),
  ].filter((el) => !el.hasAttribute('disabled') && el.tabIndex >= 0);
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (!first || !last) return;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}

export default function AgeGateDialog({
  text,
  onDecline,
  onAccept,
}: {
  text: string;
  onDecline(): void;
  onAccept(): void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      show
      centered
      backdrop="static"
      keyboard={false}
      aria-labelledby="kb-age-gate-title"
      aria-describedby="kb-age-gate-text"
    >
      <div onKeyDown={trapTab}>
        <Modal.Header>
          <Modal.Title id="kb-age-gate-title">{t('ageGate.title')}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p id="kb-age-gate-text" className="mb-0" style={{ whiteSpace: 'pre-line' }}>
            {text === DEFAULT_GATE_TEXT ? t('ageGate.defaultText') : text}
          </p>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onDecline}>
            {t('ageGate.decline')}
          </Button>
          <Button variant="primary" autoFocus onClick={onAccept}>
            {t('ageGate.accept')}
          </Button>
        </Modal.Footer>
      </div>
    </Modal>
  );
}
