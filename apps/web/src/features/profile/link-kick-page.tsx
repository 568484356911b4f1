import { useEffect } from 'react';
import { Navigate } from 'react-router';
import { useAuth } from '../../app/auth/auth-context';
import { useProfileModal } from '../../app/profile-modal-context';

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
