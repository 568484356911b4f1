import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';

/**
 * The submit of an admin form in a modal: busy while the call runs, then the success toast with the
 * text the call returns and `onDone` (which usually closes the modal and reloads). A failed call
 * keeps the form open as it was; the API wrapper has already shown the server's message. `action`
 * returns null when there was nothing to send.
 */
export function useFormSubmit(action: () => Promise<string | null>, onDone: () => void) {
  const [busy, setBusy] = useState(false);
  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const done = await action();
      if (done === null) return;
      toast.success(done);
      onDone();
    } catch {
      // shown by the API wrapper
    } finally {
      setBusy(false);
    }
  };
  return { busy, onSubmit: (e: FormEvent) => void onSubmit(e) };
}
