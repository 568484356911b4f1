/**
 * Admin → Settings: the site's branding, links, socials and public challenge category, checked by
 * the API's schema as the admin types. Saving stores them over the file's values (docs/go-live.md)
 * and refetches the site configuration, so the header, footer and title change at once here; other
 * visitors see them on their next load. The Menu tab orders and hides the menus' features
 * (menu-section.tsx). The Integrations tab holds the Kick, Discord and partner
 * keys (integration-settings-section.tsx).
 */
import { useState, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Tab from 'react-bootstrap/Tab';
import Tabs from 'react-bootstrap/Tabs';
import { useFieldArray, useWatch, type FieldError as HookFieldError } from 'react-hook-form';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import {
  BRANDING_LIMITS,
  brandingBody,
  brandingOf,
  SOCIAL_ICONS,
  siteEndpoints,
  type BrandingInput,
} from '@kickback/common/http/site';
import { useSite } from '../../shared/site-context';
import { ImageUpload } from '../../components/ui/image-upload';
import { FieldError, setServerErrors, useZodForm } from '../../lib/forms';
import { useEndpointMutation } from '../../lib/query';
import IntegrationSettingsSection from './integration-settings-section';
import MenuSection from './menu-section';
import LanguagesSection from './languages-section';

const invalid = (error: HookFieldError | undefined, id: string) => ({
  isInvalid: Boolean(error),
  'aria-invalid': Boolean(error),
  'aria-describedby': `${id}-error`,
});

function Field({
  id,
  label,
  error,
  hint,
  children,
}: {
  id: string;
  label: string;
  error: HookFieldError | undefined;
  hint?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Form.Group className="col-md-6" controlId={id}>
      <Form.Label>{label}</Form.Label>
      {children}
      <FieldError id={`${id}-error`} message={error?.message} />
      {hint ? <Form.Text className="text-body-secondary">{hint}</Form.Text> : null}
    </Form.Group>
  );
}

export default function AdminSettingsPage() {
  const site = useSite();
  const [saved] = useState(() => brandingOf(site));
  const {
    register,
    handleSubmit,
    control,
    reset,
    setError,
    setValue,
    formState: { errors, isDirty, isSubmitting },
  } = useZodForm(brandingBody, { defaultValues: saved });
  const logoUrl = useWatch({ control, name: 'logoUrl' });
  const socials = useFieldArray({ control, name: 'socials' });
  const quickLinks = useFieldArray({ control, name: 'quickLinks' });
  // SiteProvider's configuration refetches: the header, footer and title change at once.
  const save = useEndpointMutation(siteEndpoints.updateBranding, { invalidates: [siteEndpoints.config] });

  const submit = handleSubmit(async (body) => {
    try {
      const data = await save.mutateAsync({ body });
      toast.success(data.message);
      reset(brandingOf(data.site));
    } catch (err) {
      // The API wrapper showed why; a refused field is marked where it is.
      setServerErrors(err, setError, (path) => path);
    }
  });

  const text = (name: keyof BrandingInput, id: string, max: number) => ({
    maxLength: max,
    ...invalid(errors[name] as HookFieldError | undefined, id),
    ...register(name),
  });

  return (
    <div className="container py-4" style={{ maxWidth: 960 }}>
      <h1 className="h3">Settings</h1>
      <p className="text-body-secondary">
        The site&apos;s name, look and links, shown to every visitor on their next page load. The 18+ confirmation has
        its own page: <Link to="/admin/age-gate">18+ Gate</Link>.
      </p>
      <Tabs defaultActiveKey="branding" id="kb-settings-tabs" className="mb-3" mountOnEnter>
        <Tab eventKey="branding" title="Branding">
          <Form noValidate onSubmit={(e) => void submit(e)}>
            <section className="kb-card p-3 mb-3" aria-labelledby="kb-settings-branding">
              <h2 className="h5" id="kb-settings-branding">
                Branding
              </h2>
              <div className="row g-3">
                <Field id="kb-settings-site-name" label="Site name" error={errors.siteName}>
                  <Form.Control {...text('siteName', 'kb-settings-site-name', BRANDING_LIMITS.siteName)} />
                </Field>
                <Field id="kb-settings-streamer-name" label="Streamer name" error={errors.streamerName}>
                  <Form.Control {...text('streamerName', 'kb-settings-streamer-name', BRANDING_LIMITS.streamerName)} />
                </Field>
                <Field id="kb-settings-tagline" label="Tagline" error={errors.tagline}>
                  <Form.Control {...text('tagline', 'kb-settings-tagline', BRANDING_LIMITS.tagline)} />
                </Field>
                <Field
                  id="kb-settings-accent"
                  label="Accent colour"
                  error={errors.accentColor}
                  hint="Like #53fc18. It must be light enough for the dark button text and the dark pages (4.5:1)."
                >
                  <Form.Control {...text('accentColor', 'kb-settings-accent', 7)} />
                </Field>
                <Field
                  id="kb-settings-logo"
                  label="Logo URL"
                  error={errors.logoUrl}
                  hint="A site path like /brand/logo.svg or an https:// address, or an uploaded file."
                >
                  <Form.Control {...text('logoUrl', 'kb-settings-logo', BRANDING_LIMITS.url)} />
                  <div className="d-flex gap-3 align-items-start">
                    <img
                      className="kb-settings-logo-preview mt-2 flex-shrink-0"
                      src={errors.logoUrl ? saved.logoUrl : logoUrl}
                      alt="Logo preview"
                      width={48}
                      height={48}
                    />
                    <ImageUpload
                      id="kb-settings-logo-file"
                      label="Upload a logo"
                      onUploaded={(url) => setValue('logoUrl', url, { shouldDirty: true, shouldValidate: true })}
                    />
                  </div>
                </Field>
                <Field
                  id="kb-settings-kick"
                  label="Kick channel"
                  error={errors.kickChannel}
                  hint="The name in kick.com/name."
                >
                  <Form.Control {...text('kickChannel', 'kb-settings-kick', 25)} />
                </Field>
                <Field id="kb-settings-category" label="Public challenge category" error={errors.challengeCategory}>
                  <Form.Control {...text('challengeCategory', 'kb-settings-category', BRANDING_LIMITS.category)} />
                </Field>
              </div>
            </section>

            <section className="kb-card p-3 mb-3" aria-labelledby="kb-settings-links">
              <h2 className="h5" id="kb-settings-links">
                Links
              </h2>
              <div className="row g-3">
                <Field id="kb-settings-email" label="Contact email" error={errors.contactEmail}>
                  <Form.Control type="email" {...text('contactEmail', 'kb-settings-email', BRANDING_LIMITS.email)} />
                </Field>
                <Field id="kb-settings-terms" label="Terms URL" error={errors.termsUrl}>
                  <Form.Control {...text('termsUrl', 'kb-settings-terms', BRANDING_LIMITS.url)} />
                </Field>
                <Field id="kb-settings-privacy" label="Privacy URL" error={errors.privacyUrl}>
                  <Form.Control {...text('privacyUrl', 'kb-settings-privacy', BRANDING_LIMITS.url)} />
                </Field>
              </div>
              <h3 className="h6 mt-4">Quick links</h3>
              <FieldError id="kb-settings-quick-links-error" message={errors.quickLinks?.message} />
              {quickLinks.fields.map((row, i) => {
                const e = errors.quickLinks?.[i];
                return (
                  <div className="row g-2 mb-2 align-items-start" key={row.id}>
                    <div className="col-sm-4">
                      <Form.Control
                        aria-label={`Quick link ${i + 1} label`}
                        maxLength={BRANDING_LIMITS.label}
                        {...invalid(e?.label, `kb-settings-ql-${i}-label`)}
                        {...register(`quickLinks.${i}.label`)}
                      />
                      <FieldError id={`kb-settings-ql-${i}-label-error`} message={e?.label?.message} />
                    </div>
                    <div className="col-sm-6">
                      <Form.Control
                        aria-label={`Quick link ${i + 1} URL`}
                        maxLength={BRANDING_LIMITS.url}
                        {...invalid(e?.url, `kb-settings-ql-${i}-url`)}
                        {...register(`quickLinks.${i}.url`)}
                      />
                      <FieldError id={`kb-settings-ql-${i}-url-error`} message={e?.url?.message} />
                    </div>
                    <div className="col-sm-2">
                      <Button
                        variant="outline-secondary"
                        aria-label={`Remove quick link ${i + 1}`}
                        onClick={() => quickLinks.remove(i)}
                      >
                        Remove
                      </Button>
                    </div>
                  </div>
                );
              })}
              <Button
                variant="outline-secondary"
                size="sm"
                disabled={quickLinks.fields.length >= BRANDING_LIMITS.quickLinks}
                onClick={() => quickLinks.append({ label: '', url: '' })}
              >
                Add quick link
              </Button>
            </section>

            <section className="kb-card p-3 mb-3" aria-labelledby="kb-settings-socials">
              <h2 className="h5" id="kb-settings-socials">
                Socials
              </h2>
              <FieldError id="kb-settings-socials-error" message={errors.socials?.message} />
              {socials.fields.map((row, i) => {
                const e = errors.socials?.[i];
                return (
                  <div className="row g-2 mb-2 align-items-start" key={row.id}>
                    <div className="col-sm-3">
                      <Form.Control
                        aria-label={`Social ${i + 1} label`}
                        maxLength={BRANDING_LIMITS.label}
                        {...invalid(e?.label, `kb-settings-so-${i}-label`)}
                        {...register(`socials.${i}.label`)}
                      />
                      <FieldError id={`kb-settings-so-${i}-label-error`} message={e?.label?.message} />
                    </div>
                    <div className="col-sm-5">
                      <Form.Control
                        aria-label={`Social ${i + 1} URL`}
                        maxLength={BRANDING_LIMITS.url}
                        {...invalid(e?.url, `kb-settings-so-${i}-url`)}
                        {...register(`socials.${i}.url`)}
                      />
                      <FieldError id={`kb-settings-so-${i}-url-error`} message={e?.url?.message} />
                    </div>
                    <div className="col-sm-2">
                      <Form.Select
                        aria-label={`Social ${i + 1} icon`}
                        {...invalid(e?.icon, `kb-settings-so-${i}-icon`)}
                        {...register(`socials.${i}.icon`)}
                      >
                        {SOCIAL_ICONS.map((icon) => (
                          <option key={icon} value={icon}>
                            {icon}
                          </option>
                        ))}
                      </Form.Select>
                      <FieldError id={`kb-settings-so-${i}-icon-error`} message={e?.icon?.message} />
                    </div>
                    <div className="col-sm-2">
                      <Button
                        variant="outline-secondary"
                        aria-label={`Remove social ${i + 1}`}
                        onClick={() => socials.remove(i)}
                      >
                        Remove
                      </Button>
                    </div>
                  </div>
                );
              })}
              <Button
                variant="outline-secondary"
                size="sm"
                disabled={socials.fields.length >= BRANDING_LIMITS.socials}
                onClick={() => socials.append({ label: '', url: '', icon: 'link' })}
              >
                Add social link
              </Button>
            </section>

            <Button type="submit" disabled={isSubmitting || !isDirty}>
              Save
            </Button>
          </Form>
        </Tab>
        <Tab eventKey="menu" title="Menu">
          <MenuSection />
        </Tab>
        <Tab eventKey="languages" title="Languages">
          <LanguagesSection />
        </Tab>
        <Tab eventKey="integrations" title="Integrations">
          <IntegrationSettingsSection />
        </Tab>
      </Tabs>
    </div>
  );
}
