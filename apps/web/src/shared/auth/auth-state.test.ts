import { describe, expect, it } from 'vitest';
import type { AuthUser } from '@kickback/common/http/auth';
import { sameTabSigninUrl } from './auth-context';
import { authReducer, initialAuthState } from './auth-state';

const user = { isAuthenticated: true, username: 'Vex', role: 'Admin' } as AuthUser;

describe('authReducer', () => {
  it('starts signed out and initialising', () => {
    expect(initialAuthState).toMatchObject({ isAuthenticated: false, user: null, initialising: true, error: null });
  });

  it('stores the popup handles on LOGIN_REQUEST and clears them on success', () => {
    const listener = () => undefined;
    const requested = authReducer(initialAuthState, { type: 'LOGIN_REQUEST', popup: null, listener });
    expect(requested).toMatchObject({ loading: true, listener });
    const done = authReducer(requested, { type: 'LOGIN_SUCCESS', user });
    expect(done).toMatchObject({ isAuthenticated: true, user, loading: false, listener: null, popup: null });
  });

  it('records the error on LOGIN_FAILURE and signs out on LOGOUT', () => {
    const failed = authReducer(initialAuthState, { type: 'LOGIN_FAILURE', error: 'Authentication failed.' });
    expect(failed).toMatchObject({ isAuthenticated: false, error: 'Authentication failed.', loading: false });
    const signedIn = authReducer(failed, { type: 'LOGIN_SUCCESS', user });
    expect(authReducer(signedIn, { type: 'LOGOUT' })).toMatchObject({ isAuthenticated: false, user: null });
  });
});

describe('a blocked popup', () => {
  it('keeps the modal open and marks it blocked; a new attempt or a cancel clears it', () => {
    const blocked = authReducer(initialAuthState, { type: 'LOGIN_BLOCKED' });
    expect(blocked).toMatchObject({ loading: true, blocked: true });
    expect(authReducer(blocked, { type: 'LOGIN_CANCEL' })).toMatchObject({ loading: false, blocked: false });
    const retried = authReducer(blocked, { type: 'LOGIN_REQUEST', popup: null, listener: () => undefined });
    expect(retried).toMatchObject({ loading: true, blocked: false });
  });
});

describe('sameTabSigninUrl', () => {
  it('returns to the current page, without an old sign-in outcome', () => {
    expect(sameTabSigninUrl({ pathname: '/store', search: '?tab=skins&signin=failed', hash: '#top' })).toBe(
      `/auth/steam/signin?returnTo=${encodeURIComponent('/store?tab=skins#top')}`,
    );
    expect(sameTabSigninUrl({ pathname: '/', search: '', hash: '' })).toBe('/auth/steam/signin?returnTo=%2F');
  });
});
