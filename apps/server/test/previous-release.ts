/**
 * "The previous release" of the upgrade test (docs/operations.md#upgrades), taken from git, and
 * that release's server built from its own tree:
 *
 * - UPGRADE_FROM (a tag or a commit) when set — a maintainer checks an upgrade from a named release;
 * - else the tree just before the newest schema change: the first parent of the newest commit on
 *   the first-parent history of HEAD that added a migration file. Nobody has to keep it: whoever
 *   adds a migration makes the test run the server from before it on the database it migrates.
 *
 * Its server is `git archive`d into node_modules/.cache (so it resolves the packages of this
 * checkout's node_modules, as bundledServer's bundles do) and bundled there by its own build.mjs.
 * Imports no server code and no test framework, like ./processes.ts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { builtServer, serverDir, type ServerCommand } from './processes';

export const repoRoot = path.resolve(serverDir, '../..');
const MIGRATIONS = 'apps/server/src/db/migrations';

function git(args: string[], opts: { input?: Buffer } = {}) {
  const r = spawnSync('git', args, { cwd: repoRoot, encoding: 'buffer', maxBuffer: 256 * 1024 * 1024, ...opts });
  return {
    ok: r.status === 0,
    out: r.stdout?.toString('utf8').trim() ?? '',
    err: r.stderr?.toString('utf8').trim() ?? '',
    raw: r.stdout,
  };
}

export interface PreviousRelease {
  commit: string;
  /** How it was chosen, for the test's name and its messages. */
  how: string;
  /** The migrations this checkout has and that commit lacks, in the order they apply. */
  newMigrations: string[];
}

/** The previous release, or why there is none here (not a git clone, a shallow one, an unknown UPGRADE_FROM). */
export function previousRelease(): PreviousRelease | { missing: string } {
  if (!git(['rev-parse', '--git-dir']).ok) return { missing: `${repoRoot} is not a git clone` };
  const shallow = git(['rev-parse', '--is-shallow-repository']).out === 'true';
  const hint = shallow ? ' (this clone is shallow: git fetch --unshallow)' : '';
  let commit: string;
  let how: string;
  const named = process.env.UPGRADE_FROM;
  if (named) {
    const r = git(['rev-parse', '--verify', '--quiet', `${named}^{commit}`]);
    if (!r.ok) return { missing: `UPGRADE_FROM=${named} names no commit of this clone${hint}` };
    commit = r.out;
    how = `UPGRADE_FROM=${named}`;
  } else {
    const changed = git(['rev-list', '--first-parent', 'HEAD', '--', MIGRATIONS]);
    if (!changed.ok) return { missing: `git rev-list failed: ${changed.err}` };
    const adding = changed.out
      .split('\n')
      .filter(Boolean)
      .find((c) => git(['diff', '--name-only', '--diff-filter=A', `${c}^1`, c, '--', MIGRATIONS]).out !== '');
    if (!adding) return { missing: `no commit before HEAD added a migration${hint}` };
    const parent = git(['rev-parse', '--verify', '--quiet', `${adding}^1^{commit}`]);
    if (!parent.ok)
      return {
        missing: `the parent of ${adding.slice(0, 10)} (the newest migration's commit) is not in this clone${hint}`,
      };
    commit = parent.out;
    how = `the parent of ${adding.slice(0, 10)}, the newest commit that added a migration`;
  }
  const theirs = new Set(
    git(['ls-tree', '--name-only', `${commit}:${MIGRATIONS}`])
      .out.split('\n')
      .filter(Boolean),
  );
  const ours = readdirSync(path.join(repoRoot, MIGRATIONS)).filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f));
  return { commit, how, newMigrations: ours.filter((f) => !theirs.has(f)).sort() };
}

/** package.json files whose dependencies the old server runs with. */
const MANIFESTS = ['package.json', 'apps/server/package.json', 'packages/common/package.json'];

type Deps = Record<string, string>;
const depsOf = (json: string): Deps => {
  const p = JSON.parse(json) as { dependencies?: Deps; devDependencies?: Deps };
  return { ...p.devDependencies, ...p.dependencies };
};

/** How the old tree's dependencies differ from this checkout's (which it runs with), or ''. */
export function dependencyDifferences(commit: string): string {
  const lines: string[] = [];
  for (const file of MANIFESTS) {
    const old = git(['show', `${commit}:${file}`]);
    if (!old.ok) continue;
    const theirs = depsOf(old.out);
    const ours = depsOf(readFileSync(path.join(repoRoot, file), 'utf8'));
    for (const name of new Set([...Object.keys(theirs), ...Object.keys(ours)])) {
      if (theirs[name] !== ours[name])
        lines.push(`${file}: ${name} ${theirs[name] ?? '(none)'} → now ${ours[name] ?? '(none)'}`);
    }
  }
  return lines.length
    ? `The previous release's dependencies differ from this checkout's node_modules, which it runs with:\n  ${lines.join('\n  ')}`
    : '';
}

/**
 * The previous release's server: its tree (the server, the common package, the root manifest)
 * extracted from git and bundled by its own build.mjs, once per commit; the command that starts it.
 */
export function previousReleaseServer(commit: string, nodeArgs: string[] = []): ServerCommand {
  const dir = path.join(serverDir, 'node_modules/.cache', `kickback-release-${commit.slice(0, 12)}`);
  const main = path.join(dir, 'dist/main.js');
  const done = path.join(dir, '.complete');
  if (!existsSync(done)) {
    rmSync(dir, { recursive: true, force: true });
    const tree = path.join(dir, 'tree');
    mkdirSync(tree, { recursive: true });
    const archive = git([
      'archive',
      '--format=tar',
      commit,
      ...MANIFESTS,
      'apps/server/build.mjs',
      'apps/server/src',
      'packages/common/src',
    ]);
    if (!archive.ok) throw new Error(`git archive ${commit} failed: ${archive.err}`);
    const untar = spawnSync('tar', ['-x', '-C', tree], { input: archive.raw, encoding: 'utf8' });
    if (untar.status !== 0) throw new Error(`extracting ${commit} failed: ${untar.stderr}`);
    const built = spawnSync(process.execPath, ['build.mjs'], {
      cwd: path.join(tree, 'apps/server'),
      env: { ...process.env, SERVER_BUILD_DIR: path.join(dir, 'dist') },
      encoding: 'utf8',
    });
    if (built.status !== 0) {
      throw new Error(
        [
          `The previous release (${commit}) did not build (${built.status}):`,
          built.stderr,
          dependencyDifferences(commit),
        ]
          .filter(Boolean)
          .join('\n'),
      );
    }
    writeFileSync(done, new Date().toISOString());
  }
  return builtServer(main, nodeArgs);
}
