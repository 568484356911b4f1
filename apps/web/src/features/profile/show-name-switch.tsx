import { useState } from 'react';
import Form from 'react-bootstrap/Form';
import { toast } from 'react-toastify';
import { messages } from '@kickback/common/messages';
import { useAuth } from '../../shared/auth/auth-context';
import { savePreferences } from './api';

/** "Show my name on leaderboards": flips at once, saved in the background, put back if saving fails. */
export function ShowNameSwitch({ initial }: { initial: boolean }) {
  const { refreshUser } = useAuth();
  const [on, setOn] = useState(initial);
  const [pending, setPending] = useState(false);

  const change = async (next: boolean) => {
    setOn(next);
    setPending(true);
    try {
      await savePreferences({ showNameOnBoards: next });
      toast.success(messages.settingsUpdated);
      await refreshUser();
    } catch {
      setOn(!next); // the API wrapper showed why
    } finally {
      setPending(false);
    }
  };

  return (
    <>
      <Form.Check
        type="switch"
        id="kb-show-name"
        label="Show my name on leaderboards"
        checked={on}
        disabled={pending}
        onChange={(e) => void change(e.target.checked)}
      />
      <div className="form-text">
        {on
          ? 'Leaderboards show your wagering-site name in full.'
          : 'Leaderboards show your wagering-site name partly hidden.'}
      </div>
    </>
  );
}
