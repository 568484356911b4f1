/**
 * The toasts the app shell shows (the fetch wrapper's errors, sign-in and sign-out): react-toastify
 * loads with the first toast, not before every page draws (docs/benchmarks.md#first-load-budget-per-page).
 * A toast shown before the toast area is there waits for it (react-toastify queues it). Pages that
 * load react-toastify anyway import `toast` from it directly.
 */
import type * as ReactToastify from 'react-toastify';
import type { ToastContent, ToastOptions } from 'react-toastify';

type Kind = 'success' | 'error' | 'info' | 'warning';

type Toastify = typeof ReactToastify;

let loading: Promise<Toastify> | null = null;
let loaded: Toastify | null = null;

/** react-toastify, loaded once. */
export function loadToasts(): Promise<Toastify> {
  loading ??= import('react-toastify').then((m) => (loaded = m));
  return loading;
}

const show =
  (kind: Kind) =>
  (content: ToastContent, options?: ToastOptions): void => {
    const send = ({ toast }: Toastify) => (options ? toast[kind](content, options) : toast[kind](content));
    // At once when the library is there; after it loads the first time.
    if (loaded) send(loaded);
    else void loadToasts().then(send);
  };

export const toast = { success: show('success'), error: show('error'), info: show('info'), warning: show('warning') };
