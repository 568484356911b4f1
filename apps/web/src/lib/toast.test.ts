/** The shell's toasts load react-toastify with the first one (src/lib/toast.ts). */
import { describe, expect, it, vi } from 'vitest';

const { error, success } = vi.hoisted(() => ({ error: vi.fn(), success: vi.fn() }));
vi.mock('react-toastify', () => ({ toast: { error, success } }));
const { toast } = await import('./toast');

describe('toast', () => {
  it('shows the first toast once the library is there, the next ones at once, with the same arguments', async () => {
    toast.error('System error.');
    expect(error).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(error).toHaveBeenCalledWith('System error.'));
    toast.success('Signed in.', { toastId: 'signin' });
    expect(success).toHaveBeenCalledWith('Signed in.', { toastId: 'signin' });
  });
});
