import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { toast } from '../../lib/toast';
import { discordLinkResultMessage } from '@kickback/common/http/accounts';
import { useAuth } from '../../shared/auth/auth-context';
import { useProfileModal } from '../../shared/profile-modal-context';

/** Only paths of this site. */
function safePath(value: string | null): string {
  return value && /^\/(?![/\\])/.test(value) ? value : '/';
}

/**
 * Where Discord linking comes back (`/link/discord?result=…&returnTo=…`): shows the outcome,
 * refreshes the user, returns to the page the user started from and reopens the profile.
 */
export default function DiscordLinkPage() {
  const [params] = useSearchParams();
  const { initialising, refreshUser } = useAuth();
  const { openProfile } = useProfileModal();
  const navigate = useNavigate();
  const handled = useRef(false);

  useEffect(() => {
    if (initialising || handled.current) return;
    handled.current = true;
    const result = params.get('result');
    const text = discordLinkResultMessage(result);
    if (result === 'linked') toast.success(text);
    else toast.error(text);
    void refreshUser().then((user) => {
      navigate(safePath(params.get('returnTo')), { replace: true });
      if (user) openProfile();
    });
  }, [initialising, params, refreshUser, navigate, openProfile]);

  return null;
}
