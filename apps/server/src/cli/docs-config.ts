/**
 * `npm run docs:config`: writes docs/configuration.md and .env.example from the configuration
 * schema (config-docs.ts says how), so they always list every setting the server reads.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { configurationMarkdown, envExample, settingGaps } from '../config-docs';

const root = path.resolve(import.meta.dirname, '../../../..');
writeFileSync(path.join(root, 'docs/configuration.md'), configurationMarkdown());
writeFileSync(path.join(root, '.env.example'), envExample());
const { undescribed, unknown } = settingGaps();
if (undescribed.length > 0) console.warn(`Settings without a meaning in config-docs.ts: ${undescribed.join(', ')}`);
if (unknown.length > 0) console.warn(`config-docs.ts describes settings the schema lacks: ${unknown.join(', ')}`);
console.log('Wrote docs/configuration.md and .env.example.');
