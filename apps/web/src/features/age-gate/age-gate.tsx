/**
 * The 18+ gate (docs/features/sign-in-and-age-gate.md#the-18-gate): on a first visit, before any
 * page (sign-in and the wager pages among them), a visitor confirms they are of age and in a region
 * where the partner sites are allowed — the text is the site's configuration, and admins can turn
 * the gate off. The answer is remembered in this browser (localStorage) and, for a signed-in user,
 * on the account (so a new browser does not ask again). OBS overlays are exempt. Declining shows a
 * polite page.
 */
import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import { useLocation } from 'react-router';
import { api } from '../../lib/api';
import { useAuth } from '../../shared/auth/auth-context';
import { useSite } from '../../shared/site-context';
import { useTranslation } from '../../i18n/i18n';

// The dialog (Bootstrap's modal) loads when the gate is shown, not before every page draws; the page
// stays hidden until the visitor answers (docs/benchmarks.md#first-load-budget-per-page).
const AgeGateDialog = lazy(() => import('./age-gate-dialog'));

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

export function AgeGate({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const site = useSite();
  const { user, initialising } = useAuth();
  const [accepted, setAccepted] = useState(() => stored(() => localStorage, AGE_CONFIRMED_KEY));
  const [declined, setDeclined] = useState(() => stored(() => sessionStorage, DECLINED_KEY));
  const sent = useRef<string | null>(null);
  const { t } = useTranslation();

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
        <h1 className="h3">{t('ageGate.declinedTitle', { siteName: site.siteName })}</h1>
        <p>{t('ageGate.declinedText')}</p>
        <p className="text-body-secondary small">
          {t('ageGate.mistake')}{' '}
          <Button
            variant="link"
            className="p-0 align-baseline"
            onClick={() => {
              store(() => sessionStorage, DECLINED_KEY, false);
              setDeclined(false);
            }}
          >
            {t('ageGate.answerAgain')}
          </Button>
          {t('ageGate.mistakeEnd')}
        </p>
      </main>
    );
  }

  return (
    <main className="kb-age-gate-backdrop min-vh-100">
      <Suspense fallback={null}>
        <AgeGateDialog
          text={site.ageGate.text}
          onDecline={() => {
            store(() => sessionStorage, DECLINED_KEY, true);
            setDeclined(true);
          }}
          onAccept={() => {
            store(() => localStorage, AGE_CONFIRMED_KEY, true);
            setAccepted(true);
          }}
        />
      </Suspense>
    </main>
  );
}
