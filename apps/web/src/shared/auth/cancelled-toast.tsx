/**
 * The toasts for a sign-in that did not finish: the contract's failed-sign-in text ("Authentication
 * failed.", docs/product.md#sign-in) first, and a second line that says why: cancelled at the provider
 * (popup and same-tab sign-in both use it), or the sign-in window closed before it finished.
 */
import { toast } from '../../lib/toast';
import { t } from '../../i18n/i18n';

function showSignInFailed(why: string) {
  toast.error(
    <div>
      <div>{t('toast.authenticationFailed')}</div>
      <div className="small">{why}</div>
    </div>,
  );
}

export function showSignInCancelled() {
  showSignInFailed(t('toast.signInCancelled'));
}

export function showSignInWindowClosed() {
  showSignInFailed(t('toast.signInWindowClosed'));
}
