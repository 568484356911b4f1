/**
 * Opens the Profile Settings modal from anywhere: the user dropdown (Profile) and the CLICK TO LINK
 * menu entry, which first checks sign-in and an existing clash link (docs/product.md#site-validation).
 */
import { createContext, use, useCallback, useMemo, useState, type ReactNode } from 'react';
import { toast } from '../lib/toast';
import { t } from '../i18n/i18n';
import { useAuth } from './auth/auth-context';

interface ProfileModalApi {
  show: boolean;
  openProfile(): void;
  /** CLICK TO LINK: "Please sign in first." / "You have already linked a clash account." or open. */
  openLinkFlow(): void;
  close(): void;
}

const ProfileModalContext = createContext<ProfileModalApi | null>(null);

export function ProfileModalProvider({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const [show, setShow] = useState(false);
  const openProfile = useCallback(() => setShow(true), []);
  const close = useCallback(() => setShow(false), []);
  const openLinkFlow = useCallback(() => {
    if (!user) {
      toast.error(t('toast.pleaseSignInFirst'));
      return;
    }
    if (user.clashId) {
      toast.error(t('toast.alreadyLinkedClash'));
      return;
    }
    setShow(true);
  }, [user]);
  const value = useMemo(() => ({ show, openProfile, openLinkFlow, close }), [show, openProfile, openLinkFlow, close]);
  return <ProfileModalContext value={value}>{children}</ProfileModalContext>;
}

export function useProfileModal(): ProfileModalApi {
  const ctx = use(ProfileModalContext);
  if (!ctx) throw new Error('useProfileModal outside ProfileModalProvider');
  return ctx;
}
