/**
 * The create and update modals of Challenge Management (docs/product.md#site-validation): title and price required,
 * description, category and image optional; in the update form the id is read-only, status is a
 * number, and an empty winner keeps the existing one. The form is checked by the server's own
 * schema as the admin types, every missing field is named at once on submit, and a field the
 * server refuses is marked on that field.
 */
import { useState } from 'react';
import type { z } from 'zod';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { Controller } from 'react-hook-form';
import { toast } from 'react-toastify';
import {
  challengeLimits,
  challengeStatusLabels,
  createChallengeBody,
  updateChallengeBody,
  type Challenge,
} from '@kickback/common/http/challenges';
import type { UserOption } from '@kickback/common/http/users';
import { messages } from '@kickback/common/messages';
import { UserSelect } from '../../components/ui/user-select';
import { ImageUpload } from '../../components/ui/image-upload';
import { CharCounter, FieldError, setServerErrors, useZodForm } from '../../lib/forms';
import { useCreateChallenge, useUpdateChallenge } from './api';
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

/** The names the server's field errors use, in the order the form shows them. */
const fieldNames = ['title', 'price', 'category', 'description', 'imageUrl', 'status', 'winnerUserId'] as const;

interface Values {
  id?: number;
  title: string;
  price: string;
  description: string;
  category: string;
  imageUrl: string;
  status?: number;
  winnerUserId?: string;
}

function ChallengeForm({
  editing,
  defaultCategory,
  onClose,
  onSaved,
}: Omit<Props, 'target'> & { editing: Challenge | null }) {
  const {
    register,
    handleSubmit,
    control,
    setError,
    setValue,
    watch,
    formState: { errors, isSubmitting },
  } = useZodForm(editing ? updateChallengeBody : createChallengeBody, {
    defaultValues: {
      ...(editing ? { id: editing.id, status: editing.status, winnerUserId: '' } : {}),
      title: editing?.title ?? '',
      price: editing ? editing.price.toFixed(2) : '',
      description: editing?.description ?? '',
      category: editing?.category ?? defaultCategory,
      imageUrl: editing?.imageUrl ?? '',
    } satisfies Values,
  });
  const [winner, setWinner] = useState<UserOption | null>(null);
  const create = useCreateChallenge();
  const update = useUpdateChallenge();

  const submit = handleSubmit(async (body) => {
    try {
      const saved = editing
        ? await update.mutateAsync({ body: body as z.output<typeof updateChallengeBody> })
        : await create.mutateAsync({ body });
      toast.success(editing ? messages.challengeUpdated : messages.challengeCreated);
      onSaved(saved);
    } catch (err) {
      // The API wrapper showed the server's message; its field errors go on their fields.
      setServerErrors(err, setError, fieldNames);
    }
  });

  const prefix = editing ? 'edit' : 'new';
  const error = (name: (typeof fieldNames)[number]) => {
    const message = (errors as Partial<Record<string, { message?: string }>>)[name]?.message;
    return {
      isInvalid: Boolean(message),
      'aria-invalid': Boolean(message),
      'aria-describedby': `${prefix}-${name}-error${name === 'description' || name === 'title' ? ` ${prefix}-${name}-count` : ''}`,
      message,
    };
  };
  const field = (name: (typeof fieldNames)[number]) => {
    const { message: _message, ...props } = error(name);
    return props;
  };
  const imageUrl = watch('imageUrl') ?? '';
  const title = watch('title') ?? '';
  const description = watch('description') ?? '';

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
            <Form.Control {...register('title')} {...field('title')} maxLength={challengeLimits.title} required />
            <FieldError id={`${prefix}-title-error`} message={error('title').message} />
            <CharCounter id={`${prefix}-title-count`} length={String(title).length} max={challengeLimits.title} />
          </Form.Group>
          <Form.Group className="col-sm-6" controlId={`${prefix}-price`}>
            <Form.Label>Price ($)</Form.Label>
            <Form.Control
              {...register('price')}
              {...field('price')}
              inputMode="decimal"
              placeholder="e.g. 250"
              required
            />
            <FieldError id={`${prefix}-price-error`} message={error('price').message} />
          </Form.Group>
          <Form.Group className="col-sm-6" controlId={`${prefix}-category`}>
            <Form.Label>Category</Form.Label>
            <Form.Control {...register('category')} {...field('category')} maxLength={challengeLimits.category} />
            <FieldError id={`${prefix}-category-error`} message={error('category').message} />
            <Form.Text>The public page shows the {defaultCategory} category only.</Form.Text>
          </Form.Group>
          <Form.Group className="col-12" controlId={`${prefix}-description`}>
            <Form.Label>Description</Form.Label>
            <Form.Control
              as="textarea"
              rows={3}
              {...register('description')}
              {...field('description')}
              maxLength={challengeLimits.description}
            />
            <FieldError id={`${prefix}-description-error`} message={error('description').message} />
            <div className="d-flex justify-content-between gap-2">
              <Form.Text>Wrap words in {'{curly braces}'} to highlight them.</Form.Text>
              <CharCounter
                id={`${prefix}-description-count`}
                length={String(description).length}
                max={challengeLimits.description}
              />
            </div>
          </Form.Group>
          <Form.Group className="col-sm-8" controlId={`${prefix}-image`}>
            <Form.Label>Image URL</Form.Label>
            <Form.Control
              {...register('imageUrl')}
              {...field('imageUrl')}
              placeholder="https://… or /challenges/olympus.svg"
              maxLength={challengeLimits.imageUrl}
            />
            <FieldError id={`${prefix}-imageUrl-error`} message={error('imageUrl').message} />
            <ImageUpload
              id={`${prefix}-image-file`}
              label="Upload an image"
              onUploaded={(url) => setValue('imageUrl', url, { shouldDirty: true, shouldValidate: true })}
            />
          </Form.Group>
          <div className="col-sm-4">
            <ChallengeImage url={errors.imageUrl ? '' : String(imageUrl)} className="kb-form-preview" />
          </div>
          {editing && (
            <>
              <Form.Group className="col-sm-6" controlId={`${prefix}-status`}>
                <Form.Label>Status</Form.Label>
                <Form.Select {...register('status', { valueAsNumber: true })} {...field('status')}>
                  {Object.entries(challengeStatusLabels).map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </Form.Select>
                <FieldError id={`${prefix}-status-error`} message={error('status').message} />
              </Form.Group>
              <Form.Group className="col-sm-6">
                <Form.Label htmlFor={`${prefix}-winner`}>Winner</Form.Label>
                <Controller
                  control={control}
                  name="winnerUserId"
                  render={({ field: { onChange } }) => (
                    <UserSelect
                      inputId={`${prefix}-winner`}
                      value={winner}
                      onChange={(option) => {
                        setWinner(option);
                        onChange(option?.value ?? '');
                      }}
                    />
                  )}
                />
                {error('winnerUserId').message && (
                  <div className="invalid-feedback d-block" id={`${prefix}-winnerUserId-error`} role="alert">
                    {error('winnerUserId').message}
                  </div>
                )}
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
        <Button type="submit" disabled={isSubmitting}>
          {editing ? 'Update' : 'Create'}
        </Button>
      </Modal.Footer>
    </Form>
  );
}
