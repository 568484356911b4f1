/**
 * "Game successfully created." for a game page outside the shared layout: a toast raised on the
 * create page just before navigating would go to the layout's toast area, which unmounts as the
 * bare page replaces it (the toast is lost, or not, by timing). So the create page hands the news
 * over in the navigation's state and the game page raises it once, in its own toast area.
 */
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { toast } from '../../lib/toast';
import { messages } from '@kickback/common/messages';

export const CREATED_STATE = { gameCreated: true } as const;

export function useCreatedToast(): void {
  const location = useLocation();
  const navigate = useNavigate();
  const created = (location.state as { gameCreated?: boolean } | null)?.gameCreated === true;
  useEffect(() => {
    if (!created) return;
    toast.success(messages.gameCreated);
    void navigate(location.pathname, { replace: true, state: null }); // not again on reload or back
  }, [created, location.pathname, navigate]);
}
