/**
 * The 18+ gate (docs/features/sign-in-and-age-gate.md#the-18-gate): on a first visit, before any
 * page (sign-in and the wager pages among them), a visitor confirms they are of age and in a region
 * where the partner sites are allowed — the text is the site's configuration, and admins can turn
 * the gate off. The answer is remembered in this browser (localStorage) and, for a signed-in user,
 * on the account (so a new browser does not ask again). OBS overlays are exempt. Declining shows a
 * polite page.
 */
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { useLocation } from 'react-router';
import { api } from '../../lib/api';
import { useAuth } from '../../shared/auth/auth-context';
import { useSite } from '../../shared/site-context';

export const AGE_CONFIRMED_KEY = 'kb-age-confirmed';
const DECLINED_KEY = 'kb-age-declined';

/** OBS overlays load in a streaming program, not in front of a person: no gate there. */
export function isGateExempt(pathname: string): boolean {
  return /^\/overlay(\/|$)/i.test(pathname) || /^\/kick\/prediction\/overlay(\/|$)/i.test(pathname);
}

function stored(storage: () => Storage, key: string): boolean {
  try {
    return storage().getItem(key) === '1';
  } catch {
    return false;
  }
}

function store(storage: () => Storage, key: string, on: boolean) {
  try {
    if (on) storage().setItem(key, '1');
    else storage().removeItem(key);
  } catch {
    // Storage refused (private mode): the answer lasts for this page only.
  }
}

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

export function AgeGate({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const site = useSite();
  const { user, initialising } = useAuth();
  const [accepted, setAccepted] = useState(() => stored(() => localStorage, AGE_CONFIRMED_KEY));
  const [declined, setDeclined] = useState(() => stored(() => sessionStorage, DECLINED_KEY));
  const sent = useRef<string | null>(null);

  // A signed-in user who confirmed on another browser is not asked here.
  const confirmed = accepted || user?.ageConfirmed === true;

  useEffect(() => {
    if (!user) return;
    // Confirmed on the account: remember it in this browser too (it stays after sign-out).
    if (user.ageConfirmed) store(() => localStorage, AGE_CONFIRMED_KEY, true);
    // Confirmed in this browser, then signed in: remember it on the account too.
    if (!accepted || user.ageConfirmed || sent.current === user.openId) return;
    sent.current = user.openId;
    // The endpoint's schema (and zod with it) loads beside the call, not with the first page.
    import('@kickback/common/http/site')
      .then(({ siteEndpoints }) => api(siteEndpoints.confirmAge))
      .catch(() => {
        sent.current = null;
      });
  }, [accepted, user]);

  if (!site.ageGate.enabled || confirmed || isGateExempt(pathname)) return children;
  // A returning signed-in user may have confirmed elsewhere: wait for who they are.
  if (initialising) return <div className="kb-boot" aria-busy="true" />;

  if (declined) {
    return (
      <main id="main" className="container py-5 kb-age-declined" style={{ maxWidth: 560 }}>
        <h1 className="h3">Sorry, {site.siteName} is not for you</h1>
        <p>
          This site is only for adults, in places where the streamer&apos;s partner sites are allowed. Thank you for
          being honest — we hope to see you when it is right for you.
        </p>
        <p className="text-body-secondary small">
          If you answered by mistake, you can{' '}
          <Button
            variant="link"
            className="p-0 align-baseline"
            onClick={() => {
              store(() => sessionStorage, DECLINED_KEY, false);
              setDeclined(false);
            }}
          >
            answer again
          </Button>
          .
        </p>
      </main>
    );
  }

  return (
    <main className="kb-age-gate-backdrop min-vh-100">
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
            <Modal.Title id="kb-age-gate-title">Are you 18 or older?</Modal.Title>
          </Modal.Header>
          <Modal.Body>
            <p id="kb-age-gate-text" className="mb-0" style={{ whiteSpace: 'pre-line' }}>
              {site.ageGate.text}
            </p>
          </Modal.Body>
          <Modal.Footer>
            <Button
              variant="outline-secondary"
              onClick={() => {
                store(() => sessionStorage, DECLINED_KEY, true);
                setDeclined(true);
              }}
            >
              No, leave
            </Button>
            <Button
              variant="primary"
              autoFocus
              onClick={() => {
                store(() => localStorage, AGE_CONFIRMED_KEY, true);
                setAccepted(true);
              }}
            >
              Yes, I am 18 or older
            </Button>
          </Modal.Footer>
        </div>
      </Modal>
    </main>
  );
}
