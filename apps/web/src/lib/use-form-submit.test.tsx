import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useFormSubmit } from './use-form-submit';

const { success } = vi.hoisted(() => ({ success: vi.fn() }));
vi.mock('react-toastify', () => ({ toast: { success } }));

function Modal({ action, onDone }: { action: () => Promise<string | null>; onDone(): void }) {
  const { busy, onSubmit } = useFormSubmit(action, onDone);
  return (
    <form onSubmit={onSubmit} aria-label="form">
      <button type="submit" disabled={busy}>
        Save
      </button>
    </form>
  );
}

function deferred() {
  let settle!: { resolve(v: string | null): void; reject(e: Error): void };
  const promise = new Promise<string | null>((resolve, reject) => (settle = { resolve, reject }));
  return { promise, ...settle };
}

afterEach(() => {
  cleanup();
  success.mockReset();
});

describe('useFormSubmit', () => {
  it('is busy while the call runs, then toasts what it returned and calls onDone', async () => {
    const call = deferred();
    const onDone = vi.fn();
    render(<Modal action={() => call.promise} onDone={onDone} />);
    fireEvent.submit(screen.getByRole('form'));
    expect(screen.getByRole('button').hasAttribute('disabled')).toBe(true);
    expect(onDone).not.toHaveBeenCalled();
    await act(async () => call.resolve('Saved.'));
    expect(success).toHaveBeenCalledWith('Saved.');
    expect(onDone).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button').hasAttribute('disabled')).toBe(false);
  });

  it('keeps the form open on a failed call or when there was nothing to send', async () => {
    const failing = deferred();
    const onDone = vi.fn();
    render(<Modal action={() => failing.promise} onDone={onDone} />);
    fireEvent.submit(screen.getByRole('form'));
    await act(async () => failing.reject(new Error('Handled api error.')));
    expect(screen.getByRole('button').hasAttribute('disabled')).toBe(false);
    cleanup();
    render(<Modal action={async () => null} onDone={onDone} />);
    await act(async () => fireEvent.submit(screen.getByRole('form')));
    expect(success).not.toHaveBeenCalled();
    expect(onDone).not.toHaveBeenCalled();
  });
});
