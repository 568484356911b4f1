/**
 * "Upload an image" beside an image URL field (products, challenges, the logo): the chosen file
 * goes to `POST /api/admin/images` at once, and the site path the server answers is handed to
 * `onUploaded`, which puts it in the URL field (where the form's preview shows it). Typing or
 * pasting a URL there still works. The server decides what the file is (docs/features/uploaded-images.md);
 * a refusal is said under the control and as a toast.
 */
import { useState, type ChangeEvent } from 'react';
import Form from 'react-bootstrap/Form';
import { toast } from 'react-toastify';
import {
  IMAGE_ACCEPT,
  IMAGE_FIELD,
  IMAGE_MAX_BYTES,
  imageEndpoints,
  imageMessages,
} from '@kickback/common/http/images';
import { ApiError, uploadFile } from '../../lib/api';
import { FieldError } from '../../lib/forms';

export function ImageUpload({ id, label, onUploaded }: { id: string; label: string; onUploaded(url: string): void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    setError(undefined);
    if (file.size > IMAGE_MAX_BYTES) {
      // Said here without sending 2 MB the server would refuse.
      setError(imageMessages.tooLarge);
      toast.error(imageMessages.tooLarge);
      input.value = '';
      return;
    }
    setBusy(true);
    try {
      const uploaded = await uploadFile(imageEndpoints.upload, IMAGE_FIELD, file);
      toast.success(uploaded.message);
      onUploaded(uploaded.url);
    } catch (err) {
      // The API wrapper toasted the server's message; it stays under the control too.
      if (err instanceof ApiError && err.status !== 0) setError(err.serverMessage);
    } finally {
      setBusy(false);
      input.value = '';
    }
  };

  return (
    <Form.Group controlId={id} className="mt-2">
      <Form.Label className="small mb-1">{busy ? 'Uploading…' : label}</Form.Label>
      <Form.Control
        type="file"
        size="sm"
        accept={IMAGE_ACCEPT}
        disabled={busy}
        isInvalid={Boolean(error)}
        aria-invalid={Boolean(error)}
        aria-describedby={`${id}-hint ${id}-error`}
        onChange={(e) => void choose(e as ChangeEvent<HTMLInputElement>)}
      />
      <FieldError id={`${id}-error`} message={error} />
      <Form.Text id={`${id}-hint`} className="text-body-secondary">
        PNG, JPEG, WebP or GIF up to {IMAGE_MAX_BYTES / 1024 / 1024} MB; or type an image URL above.
      </Form.Text>
    </Form.Group>
  );
}
