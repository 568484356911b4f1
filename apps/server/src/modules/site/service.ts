/**
 * The site configuration as served: the file's values (config.ts, `SITE_CONFIG`) with the admin's
 * changes on top: the 18+ gate, kept in `settings` under 'age_gate', and the branding (names,
 * links, socials, challenge category) under 'branding', and the menus' order and hidden features
 * under 'menu' (docs/features/site-and-admin-tools.md#the-menu), and the languages under 'languages'
 * (docs/features/languages.md#settings). A change is audited in its transaction and
 * the cached `/api/site` read is dropped once it has committed, in every process (docs/go-live.md).
 */
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import {
  ageGate,
  brandingBody,
  brandingOf,
  kickChannelUrlOf,
  type AgeGate,
  type AgeGateBody,
  type BrandingBody,
  type MenuBody,
  type SiteConfig,
} from '@kickback/common/http/site';
import { languageSettingsBody, type LanguageSettingsBody } from '@kickback/common/http/i18n';
import { completeMenu, type MenuEntry } from '@kickback/common/site-menu';
import type { DbOrTx } from '../../db/client';
import { settings } from '../../db/schema/audit';
import { users } from '../../db/schema/users';
import { actorOf, recordAudit } from '../audit/service';

export const SITE_READ = 'site';
const AGE_GATE_KEY = 'age_gate';
const BRANDING_KEY = 'branding';
const MENU_KEY = 'menu';
const LANGUAGES_KEY = 'languages';
/** What the in-memory language settings listen for (app.languages): dropped with every change. */
export const LANGUAGES_READ = 'languages';
const storedMenuShape = z.array(z.object({ id: z.string(), shown: z.boolean() }));
/** The public challenges list shows the branding's category (modules/challenges/service.ts). */
const CHALLENGES_READ = 'challenges';

async function storedAgeGate(db: DbOrTx): Promise<AgeGate | null> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, AGE_GATE_KEY));
  const parsed = ageGate.safeParse(row?.value);
  return parsed.success ? parsed.data : null;
}

/** The admin's branding, or null while none was saved (a value that no longer reads counts as none). */
async function storedBranding(db: DbOrTx): Promise<BrandingBody | null> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, BRANDING_KEY));
  if (row === undefined) return null;
  const parsed = brandingBody.safeParse(row.value);
  return parsed.success ? parsed.data : null;
}

/** The admin's menu, or null while none was saved (or what was saved no longer reads). */
async function storedMenu(db: DbOrTx): Promise<MenuEntry[] | null> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, MENU_KEY));
  // Read loosely: a menu saved before a feature existed (or after one went) is made whole by completeMenu.
  const parsed = storedMenuShape.safeParse(row?.value);
  return parsed.success ? completeMenu(parsed.data) : null;
}

/** The admin's language settings, or null while none were saved (or what was saved no longer reads). */
async function storedLanguages(db: DbOrTx): Promise<LanguageSettingsBody | null> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, LANGUAGES_KEY));
  const parsed = languageSettingsBody.safeParse(row?.value);
  return parsed.success ? parsed.data : null;
}

/**
 * The language settings now: the admin's, else the file's site language with the bot speaking the
 * site's default and the localized commands off (docs/features/languages.md#settings).
 */
export async function languageSettingsNow(app: FastifyInstance, db: DbOrTx = app.db): Promise<LanguageSettingsBody> {
  const { language } = app.config.site;
  return (
    (await storedLanguages(db)) ?? {
      siteDefault: language.default,
      followBrowser: language.followBrowser,
      chat: language.default,
      chatAliases: false,
    }
  );
}

/** Saves the language settings; audited with what was in force before. */
export async function updateLanguages(
  app: FastifyInstance,
  admin: { id: string; username: string },
  body: LanguageSettingsBody,
): Promise<LanguageSettingsBody> {
  const next: LanguageSettingsBody = {
    siteDefault: body.siteDefault,
    followBrowser: body.followBrowser,
    chat: body.chat,
    chatAliases: body.chatAliases,
  };
  await app.db.transaction(async (tx) => {
    const before = await languageSettingsNow(app, tx);
    await tx
      .insert(settings)
      .values({ key: LANGUAGES_KEY, value: next })
      .onConflictDoUpdate({ target: settings.key, set: { value: next, updatedAt: sql`now()` } });
    await recordAudit(tx, actorOf(admin), {
      action: 'site.languages',
      targetType: 'settings',
      targetId: LANGUAGES_KEY,
      before,
      after: next,
    });
  });
  // After commit, in every process: /api/site shows the site's part, and each process reloads its
  // in-memory settings (modules/languages/service.ts).
  app.reads.invalidate(SITE_READ);
  app.reads.invalidate(LANGUAGES_READ);
  return next;
}

export async function siteConfigNow(app: FastifyInstance, db: DbOrTx = app.db): Promise<SiteConfig> {
  const gate = await storedAgeGate(db);
  const branding = await storedBranding(db);
  const menu = completeMenu((await storedMenu(db)) ?? app.config.site.menu);
  const languages = await storedLanguages(db);
  const language = languages
    ? { default: languages.siteDefault, followBrowser: languages.followBrowser }
    : app.config.site.language;
  const site: SiteConfig = { ...app.config.site, ageGate: gate ?? app.config.site.ageGate, menu, language };
  return branding ? { ...site, ...branding, kickChannelUrl: kickChannelUrlOf(branding.kickChannel) } : site;
}

/**
 * The site's name now (the admin's branding, else the file's): what the bot's chat lines and test
 * messages call the site, so a renamed site is named right from the next line, restart or not.
 */
export async function siteNameNow(app: FastifyInstance): Promise<string> {
  return (await storedBranding(app.db))?.siteName ?? app.config.site.siteName;
}

/** The accent colour now (the admin's branding, else the file's): the server-drawn pages use it. */
export async function accentColorNow(app: FastifyInstance): Promise<string> {
  return (await storedBranding(app.db))?.accentColor ?? app.config.site.accentColor;
}

/** The category the public Challenges page shows: the admin's, else the file's. */
export async function challengeCategoryNow(app: FastifyInstance): Promise<string> {
  return (await storedBranding(app.db))?.challengeCategory ?? app.config.site.challengeCategory;
}

/** Saves the admin's branding over the file's values; audited with what was shown before. */
export async function updateBranding(
  app: FastifyInstance,
  admin: { id: string; username: string },
  body: BrandingBody,
): Promise<SiteConfig> {
  const site = await app.db.transaction(async (tx) => {
    const before = (await storedBranding(tx)) ?? brandingOf(app.config.site);
    await tx
      .insert(settings)
      .values({ key: BRANDING_KEY, value: body })
      .onConflictDoUpdate({ target: settings.key, set: { value: body, updatedAt: sql`now()` } });
    await recordAudit(tx, actorOf(admin), {
      action: 'site.branding',
      targetType: 'settings',
      targetId: BRANDING_KEY,
      before,
      after: body,
    });
    return siteConfigNow(app, tx);
  });
  // After commit, in every process (lib/read-cache-sync.ts): the next reads show the change.
  app.reads.invalidate(SITE_READ);
  app.reads.invalidate(CHALLENGES_READ);
  return site;
}

/** Saves the menus' order and which features they show; audited with what was shown before. */
export async function updateMenu(
  app: FastifyInstance,
  admin: { id: string; username: string },
  body: MenuBody,
): Promise<SiteConfig> {
  const site = await app.db.transaction(async (tx) => {
    const before = completeMenu((await storedMenu(tx)) ?? app.config.site.menu);
    await tx
      .insert(settings)
      .values({ key: MENU_KEY, value: body.menu })
      .onConflictDoUpdate({ target: settings.key, set: { value: body.menu, updatedAt: sql`now()` } });
    await recordAudit(tx, actorOf(admin), {
      action: 'site.menu',
      targetType: 'settings',
      targetId: MENU_KEY,
      before,
      after: body.menu,
    });
    return siteConfigNow(app, tx);
  });
  app.reads.invalidate(SITE_READ); // after commit, in every process
  return site;
}

export async function updateAgeGate(
  app: FastifyInstance,
  admin: { id: string; username: string },
  body: AgeGateBody,
): Promise<AgeGate> {
  const next: AgeGate = { enabled: body.enabled, text: body.text };
  await app.db.transaction(async (tx) => {
    const before = (await storedAgeGate(tx)) ?? app.config.site.ageGate;
    await tx
      .insert(settings)
      .values({ key: AGE_GATE_KEY, value: next })
      .onConflictDoUpdate({ target: settings.key, set: { value: next, updatedAt: sql`now()` } });
    await recordAudit(tx, actorOf(admin), {
      action: 'site.age_gate',
      targetType: 'settings',
      targetId: AGE_GATE_KEY,
      before,
      after: next,
    });
  });
  app.reads.invalidate(SITE_READ); // after commit: the next /api/site read sees the change
  return next;
}

/** Remembers the user's confirmation (the first one counts; confirming again changes nothing). */
export async function confirmAge(db: DbOrTx, userId: string, now: Date): Promise<void> {
  await db
    .update(users)
    .set({ ageConfirmedAt: sql`coalesce(${users.ageConfirmedAt}, ${now.toISOString()}::timestamptz)` })
    .where(eq(users.id, userId));
}
