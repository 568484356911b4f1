/**
 * After a same-tab sign-in the server sends the person back with `?signin=ok|failed|cancelled`:
 * say what happened with the same toasts as the popup, then drop the parameter from the address.
 */
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { toast } from '../../lib/toast';
import { t } from '../../i18n/i18n';
import { showSignInCancelled } from '../../shared/auth/cancelled-toast';

export function SigninOutcome() {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const search = new URLSearchParams(location.search);
    const outcome = search.get('signin');
    if (!outcome) return;
    if (outcome === 'ok') toast.success(t('toast.signedIn'));
    else if (outcome === 'cancelled') showSignInCancelled();
    else toast.error(t('toast.authenticationFailed'));
    search.delete('signin');
    const query = search.toString();
    void navigate(
      { pathname: location.pathname, search: query ? `?${query}` : '', hash: location.hash },
      { replace: true },
    );
  }, [location, navigate]);
  return null;
}
