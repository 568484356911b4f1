/**
 * docker-compose.yml delivers the whole configuration (docs/operations.md#docker-compose): every
 * setting of the schema (config.ts) reaches the app — through `env_file: .env`, or set by the
 * layout itself under `environment` — the TLS front is the only published service, backups have a
 * volume at BACKUP_DIR, nothing optional is demanded, and Caddy gets the web app's build read-only
 * (deploy/publish-web.sh fills its volume; run here on folders). Docker itself is not needed: the
 * file is read.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { envSchema, loadConfig } from './config';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

interface Service {
  image?: string;
  command?: string[];
  depends_on?: string[] | Record<string, { condition?: string }>;
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

  it("gives Caddy the web app's build read-only, copied from the app's image before it starts", () => {
    const caddy = compose.services.caddy!;
    const web = compose.services.web!;
    const webRoot = (caddy.environment as Record<string, string>).KICKBACK_WEB_ROOT;
    expect(webRoot).toBeTruthy();
    expect(caddy.volumes).toContain(`web:${webRoot}:ro`);
    // The same image as the replicas, its build (WORKDIR /app in the Dockerfile) copied into the volume.
    expect(web.image).toBe(app.image);
    expect(readFileSync(path.join(root, 'Dockerfile'), 'utf8')).toMatch(/^WORKDIR \/app$/m);
    expect(web.command).toEqual(['sh', 'deploy/publish-web.sh', '/app/apps/web/dist', '/web']);
    expect(web.volumes).toEqual(['web:/web']);
    expect((caddy.depends_on as Record<string, { condition?: string }>).web?.condition).toBe(
      'service_completed_successfully',
    );
    expect(Object.keys(compose.volumes ?? {})).toContain('web');
  });

  it('publish-web.sh keeps earlier hashed files, renews the public ones, and leaves out maps and pages', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'kb-publish-'));
    try {
      const build = (name: string, files: Record<string, string>) => {
        for (const [file, body] of Object.entries(files)) {
          mkdirSync(path.dirname(path.join(dir, name, file)), { recursive: true });
          writeFileSync(path.join(dir, name, file), body);
        }
        return path.join(dir, name);
      };
      const publish = (from: string) => {
        const res = spawnSync('sh', [path.join(root, 'deploy/publish-web.sh'), from, path.join(dir, 'web')], {
          encoding: 'utf8',
        });
        expect(res.status, res.stderr).toBe(0);
      };
      const published = (file: string) =>
        existsSync(path.join(dir, 'web', file)) ? readFileSync(path.join(dir, 'web', file), 'utf8') : null;
      publish(
        build('one', {
          'index.html': 'page one',
          'bundle-report.json': '{}',
          'assets/a-111.js': 'one',
          'assets/a-111.js.br': 'one br',
          'assets/a-111.js.map': 'map',
          'store/cap.svg': 'cap one',
        }),
      );
      publish(
        build('two', {
          'index.html': 'page two',
          'assets/a-222.js': 'two',
          'assets/a-111.js': 'changed?',
          'store/cap.svg': 'cap two',
        }),
      );
      expect(published('assets/a-111.js')).toBe('one'); // a hashed name is never rewritten
      expect(published('assets/a-111.js.br')).toBe('one br');
      expect(published('assets/a-222.js')).toBe('two');
      expect(published('store/cap.svg')).toBe('cap two');
      expect(published('assets/a-111.js.map')).toBeNull();
      expect(published('index.html')).toBeNull();
      expect(published('bundle-report.json')).toBeNull();
      // No build where it was pointed: a failure that says so, nothing copied.
      const none = spawnSync(
        'sh',
        [path.join(root, 'deploy/publish-web.sh'), path.join(dir, 'none'), path.join(dir, 'x')],
        {
          encoding: 'utf8',
        },
      );
      expect(none.status).not.toBe(0);
      expect(none.stderr).toContain('no web build');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a setting left out would be caught', () => {
    const without: Service = { environment: { NODE_ENV: 'production' } };
    expect(settingsReaching(without, names).has('SECRET_KEY')).toBe(false);
  });
});
