/**
 * Every web test: markup the browser would repair (a <div> inside a <p>, say — React warns,
 * jsdom keeps it) fails the test instead of scrolling by as a warning.
 */
import { configure } from '@testing-library/react';
import { loadI18n } from '../i18n/i18n';

const report = console.error.bind(console);
console.error = (...args: unknown[]) => {
  const text = args.map(String).join(' ');
  if (/cannot be a descendant of|cannot contain a nested/.test(text)) {
    throw new Error(`Invalid HTML nesting: ${text.split('\n')[0]}`);
  }
  report(...args);
};

// findBy… and waitFor wait up to 5 s (not 1 s): CI runs these beside the PostgreSQL server suite on
// two cores, where a query's answer can take more than a second to render.
configure({ asyncUtilTimeout: 5000 });

// Components read their texts through i18next: English, as the app speaks by default.
await loadI18n('en');
