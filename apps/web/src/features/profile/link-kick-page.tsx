import { useEffect } from 'react';
import { Navigate } from 'react-router';
import { useAuth } from '../../shared/auth/auth-context';
import { useProfileModal } from '../../shared/profile-modal-context';

/** /linkkick opened directly (a shared link): run the CLICK TO LINK checks, then show the home page. */
export default function LinkKickPage() {
  const { initialising } = useAuth();
  const { openLinkFlow } = useProfileModal();
  useEffect(() => {
    if (!initialising) openLinkFlow();
  }, [initialising, openLinkFlow]);
  if (initialising) return null;
  return <Navigate to="/" replace />;
}
