-- A viewer's own language (docs/features/languages.md#settings): null follows the site (a cookie,
-- the browser, the site's default); otherwise one of the three the site speaks.
ALTER TABLE users
  ADD COLUMN language text CONSTRAINT users_language_known CHECK (language IN ('en', 'es', 'pt-BR'));
