/** The overlay URL for OBS, with its options (scale, position, theme), to copy. */
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { toast } from 'react-toastify';
import {
  defaultOverlayOptions,
  overlayPositions,
  overlayThemes,
  overlayUrl,
  type OverlayOptions,
} from './overlay-options';

export function OverlayLink() {
  const [options, setOptions] = useState<OverlayOptions>(defaultOverlayOptions);
  const url = overlayUrl(window.location.origin, options);
  const copy = () =>
    navigator.clipboard
      .writeText(url)
      .then(() => toast.success('Overlay URL copied.'))
      .catch(() => toast.error('Could not copy; select the URL instead.'));
  return (
    <section className="kb-card mb-4" aria-label="Overlay URL">
      <h2 className="h5">OBS overlay</h2>
      <p className="text-body-secondary small mb-2">A browser source of 1920×1080; the page is transparent.</p>
      <div className="row g-2 mb-2">
        <Form.Group className="col-4" controlId="ov-scale">
          <Form.Label className="small">Scale</Form.Label>
          <Form.Control
            type="number"
            min={0.5}
            max={3}
            step={0.1}
            value={options.scale}
            onChange={(e) => setOptions({ ...options, scale: Number(e.target.value) || 1 })}
          />
        </Form.Group>
        <Form.Group className="col-4" controlId="ov-position">
          <Form.Label className="small">Position</Form.Label>
          <Form.Select
            value={options.position}
            onChange={(e) => setOptions({ ...options, position: e.target.value as OverlayOptions['position'] })}
          >
            {overlayPositions.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </Form.Select>
        </Form.Group>
        <Form.Group className="col-4" controlId="ov-theme">
          <Form.Label className="small">Theme</Form.Label>
          <Form.Select
            value={options.theme}
            onChange={(e) => setOptions({ ...options, theme: e.target.value as OverlayOptions['theme'] })}
          >
            {overlayThemes.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </Form.Select>
        </Form.Group>
      </div>
      <div className="d-flex gap-2">
        <Form.Control readOnly value={url} aria-label="Overlay URL" onFocus={(e) => e.target.select()} />
        <Button variant="outline-light" onClick={() => void copy()}>
          Copy
        </Button>
      </div>
    </section>
  );
}
