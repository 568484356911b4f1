/**
 * The create and update modals of Challenge Management (spec part 1 §5): title and price required
 * (the server says which field is wrong), description, category and image optional; in the update
 * form the id is read-only, status is a number, and an empty winner keeps the existing one.
 */
import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { toast } from 'react-toastify';
import { challengeStatusLabels, type Challenge } from '@kickback/common/http/challenges';
import type { UserOption } from '@kickback/common/http/users';
import { messages } from '@kickback/common/messages';
import { UserSelect } from '../../components/ui/user-select';
import { createChallenge, updateChallenge } from './api';
import { ChallengeImage } from './challenge-image';

interface Props {
  /** `null` closed, `'new'` the create form, a challenge the update form. */
  target: Challenge | 'new' | null;
  defaultCategory: string;
  onClose(): void;
  onSaved(c: Challenge): void;
}

export function ChallengeFormModal({ target, defaultCategory, onClose, onSaved }: Props) {
  const prefix = target !== null && target !== 'new' ? 'edit' : 'new';
  return (
    <Modal show={target !== null} onHide={onClose} size="lg" aria-labelledby={`${prefix}-challenge-title`}>
      {target !== null && (
        <ChallengeForm
          key={target === 'new' ? 'new' : `${target.id}-${target.status}-${target.winnerUserId ?? ''}`}
          editing={target === 'new' ? null : target}
          defaultCategory={defaultCategory}
          onClose={onClose}
          onSaved={onSaved}
        />
      )}
    </Modal>
  );
}

function ChallengeForm({
  editing,
  defaultCategory,
  onClose,
  onSaved,
}: Omit<Props, 'target'> & { editing: Challenge | null }) {
  const [title, setTitle] = useState(editing?.title ?? '');
  const [price, setPrice] = useState(editing ? editing.price.toFixed(2) : '');
  const [description, setDescription] = useState(editing?.description ?? '');
  const [category, setCategory] = useState(editing?.category ?? defaultCategory);
  const [imageUrl, setImageUrl] = useState(editing?.imageUrl ?? '');
  const [status, setStatus] = useState(editing?.status ?? 0);
  const [winner, setWinner] = useState<UserOption | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitting(true);
    // Price goes as typed when it is not a number, so the server can name the field.
    const priceValue = price.trim() !== '' && Number.isFinite(Number(price)) ? Number(price) : price;
    try {
      const fields = { title, price: priceValue, description, category, imageUrl };
      const saved = editing
        ? await updateChallenge({ ...fields, id: editing.id, status, winnerUserId: winner?.value ?? '' })
        : await createChallenge(fields);
      toast.success(editing ? messages.challengeUpdated : messages.challengeCreated);
      onSaved(saved);
    } catch {
      setSubmitting(false); // the API wrapper showed why
    }
  };

  const prefix = editing ? 'edit' : 'new';
  return (
    <Form onSubmit={(e) => void submit(e)} noValidate>
      <Modal.Header closeButton>
        <Modal.Title id={`${prefix}-challenge-title`}>
          {editing ? 'Update Challenge' : 'Create New Challenge'}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <div className="row g-3">
          {editing && (
            <Form.Group className="col-sm-3" controlId={`${prefix}-id`}>
              <Form.Label>Id</Form.Label>
              <Form.Control value={editing.id} readOnly plaintext className="fw-semibold" />
            </Form.Group>
          )}
          <Form.Group className={editing ? 'col-sm-9' : 'col-12'} controlId={`${prefix}-title`}>
            <Form.Label>Title</Form.Label>
            <Form.Control value={title} onChange={(e) => setTitle(e.target.value)} maxLength={120} required />
          </Form.Group>
          <Form.Group className="col-sm-6" controlId={`${prefix}-price`}>
            <Form.Label>Price ($)</Form.Label>
            <Form.Control
              inputMode="decimal"
              value={price}
              onChange={(e) => setPrice(e.target.value)}
              placeholder="e.g. 250"
              required
            />
          </Form.Group>
          <Form.Group className="col-sm-6" controlId={`${prefix}-category`}>
            <Form.Label>Category</Form.Label>
            <Form.Control value={category} onChange={(e) => setCategory(e.target.value)} maxLength={60} />
            <Form.Text>The public page shows the {defaultCategory} category only.</Form.Text>
          </Form.Group>
          <Form.Group className="col-12" controlId={`${prefix}-description`}>
            <Form.Label>Description</Form.Label>
            <Form.Control
              as="textarea"
              rows={2}
              value={description}
              onChange={(e) => setDescription(e.target.value)}
              maxLength={2000}
            />
            <Form.Text>Wrap words in {'{curly braces}'} to highlight them.</Form.Text>
          </Form.Group>
          <Form.Group className="col-sm-8" controlId={`${prefix}-image`}>
            <Form.Label>Image URL</Form.Label>
            <Form.Control
              value={imageUrl}
              onChange={(e) => setImageUrl(e.target.value)}
              placeholder="https://… or /challenges/olympus.svg"
              maxLength={500}
            />
          </Form.Group>
          <div className="col-sm-4">
            <ChallengeImage url={imageUrl} className="kb-form-preview" />
          </div>
          {editing && (
            <>
              <Form.Group className="col-sm-6" controlId={`${prefix}-status`}>
                <Form.Label>Status</Form.Label>
                <Form.Select value={status} onChange={(e) => setStatus(Number(e.target.value))}>
                  {Object.entries(challengeStatusLabels).map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </Form.Select>
              </Form.Group>
              <Form.Group className="col-sm-6">
                <Form.Label htmlFor={`${prefix}-winner`}>Winner</Form.Label>
                <UserSelect inputId={`${prefix}-winner`} value={winner} onChange={setWinner} />
                <Form.Text>
                  {editing.winnerUserName
                    ? `Currently ${editing.winnerUserName}; leave empty to keep.`
                    : 'Leave empty for no winner yet.'}
                </Form.Text>
              </Form.Group>
            </>
          )}
        </div>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" disabled={submitting}>
          {editing ? 'Update' : 'Create'}
        </Button>
      </Modal.Footer>
    </Form>
  );
}
