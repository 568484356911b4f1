/**
 * docker-compose.yml delivers the whole configuration (docs/operations.md#docker-compose): every
 * setting of the schema (config.ts) reaches the app — through `env_file: .env`, or set by the
 * layout itself under `environment` — the TLS front is the only published service, backups have a
 * volume at BACKUP_DIR, and nothing optional is demanded. Docker itself is not needed: the file is read.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { envSchema, loadConfig } from './config';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

interface Service {
  image?: string;
  env_file?: string | Array<string | { path: string; required?: boolean }>;
  environment?: Record<string, string | number | boolean | null> | string[];
  volumes?: string[];
  ports?: string[];
}
interface Compose {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
}

const compose = parse(readFileSync(path.join(root, 'docker-compose.yml'), 'utf8')) as Compose;

/** The settings a service's containers receive and how: from the env file, or fixed (the value as written). */
export function settingsReaching(service: Service, names: string[]): Map<string, 'env_file' | string> {
  const files =
    service.env_file === undefined ? [] : Array.isArray(service.env_file) ? service.env_file : [service.env_file];
  const fromFile = files.some((f) => (typeof f === 'string' ? f : f.path) === '.env');
  const env = service.environment ?? {};
  const fixed = new Map<string, string>(
    Array.isArray(env)
      ? env.map((line) => {
          const [k, ...v] = line.split('=');
          return [k!, v.join('=')] as [string, string];
        })
      : Object.entries(env).map(([k, v]) => [k, String(v ?? '')]),
  );
  const out = new Map<string, 'env_file' | string>();
  for (const name of names) {
    if (fixed.has(name)) out.set(name, fixed.get(name)!);
    else if (fromFile) out.set(name, 'env_file');
  }
  return out;
}

/** What the layout itself sets for the app (these win over .env; each has its reason in the file). */
const LAYOUT = [
  'NODE_ENV',
  'PORT',
  'HOST',
  'PUBLIC_URL',
  'DATABASE_URL',
  'REDIS_URL',
  'TRUST_PROXY',
  'DRAIN_MS',
  'BACKUP_DIR',
];

describe('docker-compose.yml', () => {
  const app = compose.services.app!;
  const names = Object.keys(envSchema.shape);

  it('lets every setting of the configuration schema reach the app', () => {
    const reaching = settingsReaching(app, names);
    expect(names.filter((n) => !reaching.has(n))).toEqual([]);
    // Only the layout's own settings are fixed; everything else comes from .env.
    expect(
      [...reaching]
        .filter(([, how]) => how !== 'env_file')
        .map(([n]) => n)
        .sort(),
    ).toEqual([...LAYOUT].sort());
  });

  it('fixes the layout settings to values the server accepts in production', () => {
    const fixed = Object.fromEntries(
      [...settingsReaching(app, LAYOUT)].map(([n, v]) => [
        n,
        v.replace(/\$\{(\w+)[^}]*\}/g, (_m, v: string) => (v === 'KICKBACK_DOMAIN' ? 'kick.example.com' : 'pw')),
      ]),
    );
    const config = loadConfig({ ...fixed, SESSION_SECRET: 'x'.repeat(32), STEAM_API_KEY: 'key' });
    expect(config.isProduction).toBe(true);
    expect(config.publicUrl).toBe('https://kick.example.com');
    expect(config.trustProxy).toBe(1);
    expect(config.backups.dir).toBe('/backups');
  });

  it('asks for no optional setting (ADMIN_STEAM_IDS included)', () => {
    const text = readFileSync(path.join(root, 'docker-compose.yml'), 'utf8');
    const demanded = [...text.matchAll(/\$\{(\w+):\?/g)].map((m) => m[1]);
    expect([...new Set(demanded)].sort()).toEqual(['KICKBACK_DOMAIN', 'POSTGRES_PASSWORD']);
  });

  it('publishes the TLS front only, with its certificate volume, and keeps backups in a volume', () => {
    const published = Object.entries(compose.services)
      .filter(([, s]) => s.ports?.length)
      .map(([n]) => n);
    expect(published).toEqual(['caddy']);
    const caddy = compose.services.caddy!;
    expect(caddy.image).toMatch(/^caddy:/);
    expect(caddy.volumes).toContain('./deploy/Caddyfile:/etc/caddy/Caddyfile:ro');
    expect(caddy.volumes).toContain('caddy_data:/data');
    expect(app.volumes).toContain('backups:/backups');
    expect(Object.keys(compose.volumes ?? {})).toEqual(expect.arrayContaining(['backups', 'caddy_data', 'pgdata']));
    // One upstream per replica.
    const replicas = (app as { deploy?: { replicas?: number } }).deploy?.replicas ?? 1;
    const upstreams = String((caddy.environment as Record<string, string>).KICKBACK_UPSTREAMS).split(/\s+/);
    expect(upstreams).toEqual(Array.from({ length: replicas }, (_, i) => `kickback-app-${i + 1}:3000`));
  });

  it('a setting left out would be caught', () => {
    const without: Service = { environment: { NODE_ENV: 'production' } };
    expect(settingsReaching(without, names).has('SECRET_KEY')).toBe(false);
  });
});
