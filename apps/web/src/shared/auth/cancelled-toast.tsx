/**
 * The toast for a sign-in cancelled at the provider: the catalogue's failed-sign-in text first, and a
 * second line that says it was a cancel (popup and same-tab sign-in both use it).
 */
import { toast } from 'react-toastify';
import { messages } from '@kickback/common/messages';

export function showSignInCancelled() {
  toast.error(
    <div>
      <div>{messages.authenticationFailed}</div>
      <div className="small">{messages.signInCancelled}</div>
    </div>,
  );
}
