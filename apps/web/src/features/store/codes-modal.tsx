/**
 * Admin → Products → Codes: a code product's pool. Upload codes pasted one per line or from a CSV
 * file (first column); the form refuses repeats within the upload as the admin types (the shared
 * codeUploadBody rule) and the server refuses codes already in any pool (this product's or another
 * one's), naming each and why; a partial upload's refusals stay shown under the field. After the
 * upload the codes are never shown again: only counts and masked tails; an unsold duplicate the
 * start-up re-hash withdrew from sale (docs/features/points-and-store.md) says so.
 */
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'react-toastify';
import {
  adminProductEndpoints,
  codeUploadBody,
  MAX_CODES_PER_UPLOAD,
  parseCodes,
  type AdminProduct,
  type CodeUploadBody,
} from '@kickback/common/http/store';
import { ApiError } from '../../lib/api';
import { useEndpointMutation, useEndpointQuery } from '../../lib/query';

export function CodesModal({ product, onClose }: { product: AdminProduct; onClose(): void }) {
  const pool = useEndpointQuery(adminProductEndpoints.codes, { params: { id: product.id } });
  const form = useForm<CodeUploadBody>({
    resolver: zodResolver(codeUploadBody),
    mode: 'onChange',
    defaultValues: { text: '' },
  });
  const upload = useEndpointMutation(adminProductEndpoints.uploadCodes, {
    invalidates: [adminProductEndpoints.codes, adminProductEndpoints.list],
  });
  const text = useWatch({ control: form.control, name: 'text' });
  const count = parseCodes(text ?? '').length;
  const error = form.formState.errors.text?.message;
  const [refusals, setRefusals] = useState<string | null>(null);

  const submit = form.handleSubmit(async (values) => {
    try {
      setRefusals(null);
      const res = await upload.mutateAsync({ params: { id: product.id }, body: values });
      if (res.refused > 0) toast.warning(res.message);
      else toast.success(res.message);
      form.reset({ text: '' });
      setRefusals(res.refused > 0 ? res.message : null);
    } catch (err) {
      // Shown as a toast by the API wrapper; the codes it names stay beside the field too.
      if (err instanceof ApiError && err.status !== 401) form.setError('text', { message: err.serverMessage });
    }
  });

  const readFile = async (file: File | undefined) => {
    if (!file) return;
    form.setValue('text', await file.text(), { shouldValidate: true });
  };

  return (
    <Modal show onHide={onClose} centered size="lg" aria-labelledby="codes-modal-title">
      <Form onSubmit={(e) => void submit(e)} noValidate>
        <Modal.Header closeButton>
          <Modal.Title as="h2" className="h5" id="codes-modal-title">
            Codes: {product.name}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p className="mb-2" data-testid="code-counts">
            <Badge bg="success" className="me-2">
              {pool.data?.available ?? '…'} available
            </Badge>
            <Badge bg="secondary">{pool.data?.sold ?? '…'} sold</Badge>
            {!!pool.data?.withdrawn && (
              <Badge bg="warning" text="dark" className="ms-2">
                {pool.data.withdrawn} withdrawn (duplicates)
              </Badge>
            )}
          </p>
          <Form.Group className="mb-2" controlId="codes-text">
            <Form.Label>Add codes, one per line</Form.Label>
            <Form.Control
              as="textarea"
              rows={6}
              spellCheck={false}
              className="font-monospace"
              placeholder={'XXXX-YYYY-ZZZZ\nAAAA-BBBB-CCCC'}
              isInvalid={!!error}
              {...form.register('text')}
            />
            <Form.Control.Feedback type="invalid">{error}</Form.Control.Feedback>
            <Form.Text>
              {count} code{count === 1 ? '' : 's'} (at most {MAX_CODES_PER_UPLOAD.toLocaleString('en-US')} per upload).
              They are stored encrypted and never shown again here.
            </Form.Text>
            {refusals && (
              <p className="text-warning-emphasis small mt-1 mb-0" role="status" data-testid="code-refusals">
                {refusals}
              </p>
            )}
          </Form.Group>
          <Form.Group className="mb-3" controlId="codes-file">
            <Form.Label className="small">
              …or a CSV file (the first column; a &quot;code&quot; header is skipped)
            </Form.Label>
            <Form.Control
              type="file"
              accept=".csv,.txt,text/csv,text/plain"
              size="sm"
              onChange={(e) => void readFile((e.target as HTMLInputElement).files?.[0])}
            />
          </Form.Group>
          <h3 className="h6">Newest codes</h3>
          <ul className="kb-code-list" data-testid="code-list">
            {pool.data?.codes.map((c) => (
              <li key={c.id}>
                <code>{c.masked}</code>{' '}
                {c.sold ? (
                  <Badge bg="secondary">sold</Badge>
                ) : c.withdrawn ? (
                  <Badge bg="warning" text="dark" title="Another code in the pools is the same card: never sold">
                    withdrawn: duplicate
                  </Badge>
                ) : (
                  <Badge bg="success">available</Badge>
                )}
              </li>
            ))}
            {pool.data && pool.data.codes.length === 0 && <li className="text-body-secondary">No codes yet.</li>}
          </ul>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onClose}>
            Close
          </Button>
          <Button type="submit" disabled={upload.isPending || count === 0}>
            Upload {count || ''} code{count === 1 ? '' : 's'}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
