/** docs/configuration.md and .env.example are what the configuration schema makes (npm run docs:config). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configurationMarkdown, envExample, settingGaps } from './config-docs';

const root = path.resolve(import.meta.dirname, '../../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

describe('the configuration documents', () => {
  it('describe every variable of the schema, and none it lacks', () => {
    expect(settingGaps()).toEqual({ undescribed: [], unknown: [] });
  });

  it('docs/configuration.md is what the schema generates (run `npm run docs:config`)', () => {
    expect(read('docs/configuration.md')).toBe(configurationMarkdown());
  });

  it('.env.example is what the schema generates (run `npm run docs:config`)', () => {
    expect(read('.env.example')).toBe(envExample());
  });
});
