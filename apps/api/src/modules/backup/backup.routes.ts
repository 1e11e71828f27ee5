import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { conflict, forbidden, notFound, validationError } from '@pos/domain/errors';
import { caller } from '../../plugins/auth.ts';
import { isOwner } from '../catalogue/user-policy.ts';
import { createBackup, describeBackup } from '../../backup/backup.ts';
import { BackupFileError, parseBackupName } from '../../backup/backup-file.ts';
import { restoreWithSafetyCopy, RestoreRefused } from '../../backup/restore.ts';
import { backupDir, listBackups, type BackupEntry } from '../../backup/schedule.ts';
import { DEFAULT_RETENTION } from '../../backup/retention.ts';

/** A restore upload may be as large as a shop's backup gets (the global multipart limit is for imports). */
const RESTORE_MAX_BYTES = 4 * 1024 * 1024 * 1024;
const OWNER_ONLY = 'Only an owner (an administrator of every store) can back up or restore the shop: a backup holds every store.';

/**
 * Backups of the whole shop (backup/*): list, take now, download, restore from an uploaded file.
 * A backup holds every store's data and every user's password hash, so these routes are for the
 * owner (an administrator of every store), not for an administrator of some stores.
 */
export default async function backupRoutes(app: FastifyInstance) {
  const tags = ['Backups'];
  const folder = () => backupDir(app.config.dataDir);
  const owner = async (request: FastifyRequest) => {
    if (!(await isOwner(app.db, caller(request)))) throw forbidden(OWNER_ONLY);
  };
  const entry = (name: string): BackupEntry => listBackups(folder()).find((b) => b.name === name)!;

  app.get('/api/admin/backups', { config: { auth: 'settings' }, schema: { tags, summary: 'The backups in the data folder, newest first: {backups, last, directory, daily, retention}' } }, async (request) => {
    await owner(request);
    const dir = folder();
    const backups = listBackups(folder());
    return { backups, last: backups[0] ?? null, directory: dir, daily: app.config.dailyBackups, retention: DEFAULT_RETENTION };
  });

  app.post('/api/admin/backups', { config: { auth: 'settings' }, schema: { tags, summary: 'Take a backup now: {backup, tables, rows, migration}' } }, async (request) => {
    await owner(request);
    const dir = folder();
    const result = await createBackup(app.database.url, dir, { kind: 'manual', source: app.database.kind });
    request.log.info(`Backup ${result.file} (${result.size} bytes, ${describeBackup(result.header)}) taken by ${caller(request).username}`);
    return { backup: entry(result.name), tables: result.header.tables.length, rows: result.header.tables.reduce((n, t) => n + t.rows, 0), migration: result.header.migration.tag };
  });

  // compress: false: the file is gzip already, and its length is known (a download shows its progress).
  app.get('/api/admin/backups/:name', { compress: false, config: { auth: 'settings' }, schema: { tags, summary: 'Download one backup file (token in the Authorization header only)' } }, async (request, reply) => {
    await owner(request);
    const dir = folder();
    const { name } = request.params as { name: string };
    const file = path.join(dir, name);
    if (!parseBackupName(name) || !fs.existsSync(file)) throw notFound('Backup not found');
    reply.header('content-type', 'application/octet-stream')
      .header('content-disposition', `attachment; filename="${name}"`)
      .header('content-length', fs.statSync(file).size)
      .header('cache-control', 'no-store');
    return reply.send(fs.createReadStream(file));
  });

  app.post('/api/admin/backups/restore', { config: { auth: 'settings' }, schema: { tags, summary: 'Restore the shop from an uploaded backup (multipart field file); the current data is kept as a pre-restore backup first' } }, async (request) => {
    await owner(request);
    const dir = folder();
    const upload = path.join(dir, `upload-${process.pid}-${Date.now()}.partial`);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    try {
      try {
        const part = await request.file({ limits: { fileSize: RESTORE_MAX_BYTES, files: 1 } });
        if (!part || part.fieldname !== 'file') throw validationError([{ propertyPath: 'file', message: 'This value should not be blank.' }], 'Choose a backup file.');
        await pipeline(part.file, fs.createWriteStream(upload, { mode: 0o600 }));
        if (part.file.truncated) throw validationError([{ propertyPath: 'file', message: 'The file is too large.' }], 'The file is too large; nothing was changed.');
      } catch (e) {
        if ((e as { code?: string }).code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw validationError([{ propertyPath: 'file', message: 'This value should not be blank.' }], 'Choose a backup file.');
        throw e;
      }
      const result = await restoreWithSafetyCopy(app.database.url, upload, dir, app.database.kind);
      request.log.warn(`Restored a backup of ${result.header.createdAt} (${describeBackup(result.header)}) by ${caller(request).username}; the data before is kept as ${result.before.file}`);
      return {
        restored: { createdAt: result.header.createdAt, tables: result.header.tables.length, rows: result.rows, migration: result.header.migration.tag, migratedTo: result.migratedTo, ms: result.ms },
        before: entry(result.before.name),
      };
    } catch (e) {
      if (e instanceof BackupFileError) throw validationError([{ propertyPath: 'file', message: e.message.replace(/upload-\d+-\d+\.partial/g, 'The file') }], 'This file cannot be restored; nothing was changed.');
      if (e instanceof RestoreRefused) throw conflict(e.message);
      throw e;
    } finally {
      fs.rmSync(upload, { force: true });
    }
  });
}
