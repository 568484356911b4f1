/**
 * Sign-in state for the whole app and the popup flow of spec part 1 §4: the popup opens at
 * auth/steam/signin, 40% × 70% of the window and centred; only a same-origin `authpopup` message
 * is accepted; popup and listener are cleaned up on every outcome and before each new attempt.
 */
import { createContext, use, useCallback, useEffect, useMemo, useReducer, useRef, type ReactNode } from 'react';
import { toast } from 'react-toastify';
import type { AuthUser, authPopupMessage } from '@kickback/common/http/auth';
import { messages } from '@kickback/common/messages';
import { hasSignedInHint, SIGNED_IN_HINT_COOKIE } from '@kickback/common/signed-in-hint';
import { api, ApiError } from '../../lib/api';
import { authReducer, initialAuthState, type AuthState } from './auth-state';

interface AuthApi extends AuthState {
  signIn(): void;
  cancelSignIn(): void;
  signOut(): Promise<void>;
  /** Re-reads the user (after a purchase, a link, a claim…). */
  refreshUser(): Promise<AuthUser | null>;
}

const AuthContext = createContext<AuthApi | null>(null);

export const POPUP_PATH = '/auth/steam/signin';

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

  const signIn = useCallback(() => {
    cleanup();
    void authSchemas(); // ready before the popup answers
    const listener = (event: MessageEvent) => {
      if (event.origin !== window.location.origin) return;
      void authSchemas().then((schemas) => onMessage(schemas.authPopupMessage.safeParse(event.data)));
    };
    const onMessage = (parsed: ReturnType<(typeof authPopupMessage)['safeParse']>) => {
      if (!parsed.success) return;
      cleanup();
      if (parsed.data.success) {
        toast.success(messages.signedIn);
        ping()
          .then((user) => dispatch({ type: 'LOGIN_SUCCESS', user }))
          .catch((err: unknown) => dispatch({ type: 'LOGIN_FAILURE', error: (err as Error).message }));
      } else {
        toast.error(messages.authenticationFailed);
        dispatch({ type: 'LOGIN_FAILURE', error: parsed.data.message });
      }
    };
    window.addEventListener('message', listener);
    const popup = window.open(POPUP_PATH, 'kickback-signin', popupFeatures(window));
    // A popup the person closes without finishing ends the attempt quietly. The popup also closes
    // itself right after posting its result, so allow the message a moment to arrive first.
    let closedSince: number | null = null;
    const timer = window.setInterval(() => {
      const open = handles.current.popup && !handles.current.popup.closed;
      if (open) return;
      closedSince ??= Date.now();
      if (Date.now() - closedSince >= 1500) {
        cleanup();
        dispatch({ type: 'LOGIN_CANCEL' });
      }
    }, 500);
    handles.current = { popup, listener, timer };
    dispatch({ type: 'LOGIN_REQUEST', popup, listener });
  }, [cleanup]);

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
    toast.success(messages.signedOut);
  }, []);

  const value = useMemo<AuthApi>(
    () => ({ ...state, signIn, cancelSignIn, signOut, refreshUser }),
    [state, signIn, cancelSignIn, signOut, refreshUser],
  );
  return <AuthContext value={value}>{children}</AuthContext>;
}

export function useAuth(): AuthApi {
  const ctx = use(AuthContext);
  if (!ctx) throw new Error('useAuth outside AuthProvider');
  return ctx;
}
