/**
 * Sign-in state for the whole app and the popup flow of docs/product.md#site-states-and-transitions: the popup opens at
 * auth/steam/signin, 40% × 70% of the window and centred; only a same-origin `authpopup` message
 * is accepted; popup and listener are cleaned up on every outcome and before each new attempt.
 * On a phone (narrow or touch screen) sign-in runs in the same tab instead, and a blocked popup is
 * said in the Logging In modal with a same-tab button; the same-tab sign-in returns to the page it
 * left with `?signin=ok|failed|cancelled` (SigninOutcome announces it).
 */
import { createContext, use, useCallback, useEffect, useMemo, useReducer, useRef, type ReactNode } from 'react';
import { toast } from '../../lib/toast';
import type { AuthUser, authPopupMessage } from '@kickback/common/http/auth';
import { t } from '../../i18n/i18n';
import { showSignInCancelled, showSignInWindowClosed } from './cancelled-toast';
import { hasSignedInHint, SIGNED_IN_HINT_COOKIE } from '@kickback/common/signed-in-hint';
import { api, ApiError } from '../../lib/api';
import { authReducer, initialAuthState, type AuthState } from './auth-state';

interface AuthApi extends AuthState {
  signIn(): void;
  /** Sign in in this tab and come back to the current page afterwards. */
  signInHere(): void;
  cancelSignIn(): void;
  signOut(): Promise<void>;
  /** Re-reads the user (after a purchase, a link, a claim…). */
  refreshUser(): Promise<AuthUser | null>;
}

const AuthContext = createContext<AuthApi | null>(null);

export const POPUP_PATH = '/auth/steam/signin';

/** A phone: a popup there is a sliver of the screen (156 px at 390 px), so sign in in the tab. */
export const PHONE_QUERY = '(max-width: 575.98px), (pointer: coarse)';

/** The same-tab sign-in URL that comes back to `here` (its own `signin` outcome left out). */
export function sameTabSigninUrl(here: Pick<Location, 'pathname' | 'search' | 'hash'>): string {
  const search = new URLSearchParams(here.search);
  search.delete('signin');
  const query = search.toString();
  const back = `${here.pathname}${query ? `?${query}` : ''}${here.hash}`;
  return `${POPUP_PATH}?returnTo=${encodeURIComponent(back)}`;
}

export function popupFeatures(win: Pick<Window, 'outerWidth' | 'outerHeight' | 'screenX' | 'screenY'>): string {
  const width = Math.round(win.outerWidth * 0.4);
  const height = Math.round(win.outerHeight * 0.7);
  const left = Math.round(win.screenX + (win.outerWidth - width) / 2);
  const top = Math.round(win.screenY + (win.outerHeight - height) / 2);
  return `popup=yes,width=${width},height=${height},left=${left},top=${top}`;
}

/** The auth schemas (and zod with them) load beside the first call, not with the first page. */
const authSchemas = () => import('@kickback/common/http/auth');

async function ping(): Promise<AuthUser> {
  // The endpoint's schemas (and zod with them) load beside the first call, not with the first page.
  const { userEndpoints } = await import('@kickback/common/http/users');
  return api(userEndpoints.ping);
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, dispatch] = useReducer(authReducer, initialAuthState);
  const handles = useRef<{ popup: Window | null; listener: ((e: MessageEvent) => void) | null; timer: number | null }>({
    popup: null,
    listener: null,
    timer: null,
  });

  const cleanup = useCallback(() => {
    const h = handles.current;
    if (h.listener) window.removeEventListener('message', h.listener);
    if (h.timer !== null) window.clearInterval(h.timer);
    if (h.popup && !h.popup.closed) h.popup.close();
    handles.current = { popup: null, listener: null, timer: null };
  }, []);

  const refreshUser = useCallback(async () => {
    try {
      const user = await ping();
      dispatch({ type: 'USER_REFRESHED', user });
      return user;
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        document.cookie = `${SIGNED_IN_HINT_COOKIE}=; Max-Age=0; path=/`;
        dispatch({ type: 'LOGOUT' });
      }
      return null;
    }
  }, []);

  // Who am I, on first load — only when a session was started here (a signed-out visitor's
  // load makes no call that must answer 401).
  useEffect(() => {
    if (hasSignedInHint(document.cookie)) void refreshUser();
    else dispatch({ type: 'LOGOUT' });
  }, [refreshUser]);

  useEffect(() => cleanup, [cleanup]);

  const signInHere = useCallback(() => {
    cleanup();
    window.location.assign(sameTabSigninUrl(window.location));
  }, [cleanup]);

  const signIn = useCallback(() => {
    cleanup();
    if (window.matchMedia(PHONE_QUERY).matches) {
      signInHere();
      return;
    }
    void authSchemas(); // ready before the popup answers
    const listener = (event: MessageEvent) => {
      if (event.origin !== window.location.origin) return;
      void authSchemas().then((schemas) => onMessage(schemas.authPopupMessage.safeParse(event.data)));
    };
    const onMessage = (parsed: ReturnType<(typeof authPopupMessage)['safeParse']>) => {
      if (!parsed.success) return;
      cleanup();
      if (parsed.data.cancelled) {
        showSignInCancelled();
        dispatch({ type: 'LOGIN_CANCEL' });
      } else if (parsed.data.success) {
        toast.success(t('toast.signedIn'));
        ping()
          .then((user) => dispatch({ type: 'LOGIN_SUCCESS', user }))
          .catch((err: unknown) => dispatch({ type: 'LOGIN_FAILURE', error: (err as Error).message }));
      } else {
        toast.error(t('toast.authenticationFailed'));
        dispatch({ type: 'LOGIN_FAILURE', error: parsed.data.message });
      }
    };
    const popup = window.open(POPUP_PATH, 'kickback-signin', popupFeatures(window));
    if (!popup || popup.closed) {
      // Blocked: the modal says so and offers the same-tab sign-in instead of vanishing.
      dispatch({ type: 'LOGIN_BLOCKED' });
      return;
    }
    window.addEventListener('message', listener);
    // A popup the person closes without finishing ends the attempt, and says so. The popup also
    // closes itself right after posting its result, so allow the message a moment to arrive first.
    let closedSince: number | null = null;
    const timer = window.setInterval(() => {
      const open = handles.current.popup && !handles.current.popup.closed;
      if (open) return;
      closedSince ??= Date.now();
      if (Date.now() - closedSince >= 1500) {
        cleanup();
        showSignInWindowClosed();
        dispatch({ type: 'LOGIN_CANCEL' });
      }
    }, 500);
    handles.current = { popup, listener, timer };
    dispatch({ type: 'LOGIN_REQUEST', popup, listener });
  }, [cleanup, signInHere]);

  const cancelSignIn = useCallback(() => {
    cleanup();
    dispatch({ type: 'LOGIN_CANCEL' });
  }, [cleanup]);

  const signOut = useCallback(async () => {
    try {
      await api('/auth/signout');
    } finally {
      dispatch({ type: 'LOGOUT' });
    }
    toast.success(t('toast.signedOut'));
  }, []);

  const value = useMemo<AuthApi>(
    () => ({ ...state, signIn, signInHere, cancelSignIn, signOut, refreshUser }),
    [state, signIn, signInHere, cancelSignIn, signOut, refreshUser],
  );
  return <AuthContext value={value}>{children}</AuthContext>;
}

export function useAuth(): AuthApi {
  const ctx = use(AuthContext);
  if (!ctx) throw new Error('useAuth outside AuthProvider');
  return ctx;
}
