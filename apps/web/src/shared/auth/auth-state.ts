/**
 * The auth state of docs/product.md#site-entities, docs/product.md#site-states-and-transitions as a
 * reducer: isAuthenticated starts false; user comes from the ping; loading; error; and the handles
 * of the open sign-in popup and its message listener.
 */
import type { AuthUser } from '@kickback/common/http/auth';

export interface AuthState {
  isAuthenticated: boolean;
  user: AuthUser | null;
  loading: boolean;
  /** True until the first ping has answered (restricted pages render empty meanwhile). */
  initialising: boolean;
  error: string | null;
  /** The browser blocked the sign-in popup; the modal offers the same-tab sign-in. */
  blocked: boolean;
  popup: Window | null;
  listener: ((event: MessageEvent) => void) | null;
}

export type AuthAction =
  | { type: 'LOGIN_REQUEST'; popup: Window | null; listener: (event: MessageEvent) => void }
  | { type: 'LOGIN_SUCCESS'; user: AuthUser }
  | { type: 'LOGIN_FAILURE'; error: string }
  | { type: 'LOGIN_BLOCKED' }
  | { type: 'LOGIN_CANCEL' }
  | { type: 'USER_REFRESHED'; user: AuthUser }
  | { type: 'LOGOUT' };

export const initialAuthState: AuthState = {
  isAuthenticated: false,
  user: null,
  loading: false,
  initialising: true,
  error: null,
  blocked: false,
  popup: null,
  listener: null,
};

export function authReducer(state: AuthState, action: AuthAction): AuthState {
  switch (action.type) {
    case 'LOGIN_REQUEST':
      return { ...state, loading: true, blocked: false, error: null, popup: action.popup, listener: action.listener };
    case 'LOGIN_BLOCKED':
      return { ...state, loading: true, blocked: true, popup: null, listener: null };
    case 'LOGIN_SUCCESS':
      return {
        ...state,
        isAuthenticated: true,
        user: action.user,
        loading: false,
        blocked: false,
        initialising: false,
        popup: null,
        listener: null,
      };
    case 'LOGIN_FAILURE':
      return {
        ...state,
        isAuthenticated: false,
        error: action.error,
        loading: false,
        blocked: false,
        initialising: false,
        popup: null,
        listener: null,
      };
    case 'LOGIN_CANCEL':
      return { ...state, loading: false, blocked: false, popup: null, listener: null };
    case 'USER_REFRESHED':
      return { ...state, isAuthenticated: true, user: action.user, initialising: false };
    case 'LOGOUT':
      return { ...state, isAuthenticated: false, user: null, loading: false, blocked: false, initialising: false };
  }
}
