/**
 * `npm run backup -- <file>` and `npm run restore -- <file>` (docs/backups.md). The file name is
 * made absolute where the operator typed it, so a running server writing it through the control
 * endpoint puts it in the same place.
 */
import path from 'node:path';
import { z } from 'zod';
import { BackupError, restoreBackup, writeBackup } from '../../db/backup';
import { AppError } from '../../lib/errors';
import type { ShellCommand } from '../../lib/shell-command';

const fileArgs = z.object({
  file: z.string({ error: 'name the backup file' }).min(1, 'name the backup file'),
});

const fromArgv = ([file]: string[]) => ({ file: file === undefined ? undefined : path.resolve(file) });

function operatorError(err: unknown): never {
  if (err instanceof BackupError) throw new AppError(409, err.message);
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EEXIST') throw new AppError(409, `${(err as NodeJS.ErrnoException).path} exists: name a new file.`);
  if (code === 'ENOENT') throw new AppError(404, `No such file: ${(err as NodeJS.ErrnoException).path}.`);
  if (code === 'EACCES') throw new AppError(403, `Not allowed to use ${(err as NodeJS.ErrnoException).path}.`);
  throw err;
}

export const backupShellCommand = {
  usage: 'backup <file>   (a consistent copy of the whole database, gzipped; safe while the site runs)',
  fromArgv,
  args: fileArgs,
  async run({ db }, { file }) {
    const { tables, rows } = await writeBackup(db, file).catch(operatorError);
    return `Backed up ${rows} rows of ${tables} tables to ${file}.`;
  },
} satisfies ShellCommand<typeof fileArgs>;

export const restoreShellCommand = {
  usage: 'restore <file>   (into a new, empty database: DATA_DIR or DATABASE_URL of one)',
  fromArgv,
  args: fileArgs,
  async run({ db, app }, { file }) {
    if (app) {
      throw new AppError(
        409,
        'A server is running on this database: stop it, then restore into a new, empty database.',
      );
    }
    const { tables, rows } = await restoreBackup(db, file).catch(operatorError);
    return `Restored ${rows} rows of ${tables} tables from ${file}.`;
  },
} satisfies ShellCommand<typeof fileArgs>;
