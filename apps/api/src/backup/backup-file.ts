/**
 * The backup file: one gzip stream (its CRC catches a corrupt or cut file) holding
 *
 *   POS-BACKUP 1\n                 magic and format version
 *   {header JSON}\n                release, schema (last migration), time, tables with counts and sums
 *   <COPY text rows of table 1>     PostgreSQL's COPY text format, one row a line
 *   \.\n                           end of that table (COPY's own end marker: never a data line,
 *   ...                             since COPY writes a backslash in data as \\)
 *
 * tables in the header's order (every table after those its foreign keys point to).
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Writable } from 'node:stream';
import type { TableCheck, SequencePosition } from '../db/table-checks.ts';
import type { MigrationId } from './schema-level.ts';

export const MAGIC = 'POS-BACKUP';
export const FORMAT = 1;
export const END_OF_TABLE = Buffer.from('\\.\n');

export type BackupKind = 'daily' | 'manual' | 'pre-migration' | 'pre-restore' | 'move';
export const BACKUP_KINDS: readonly BackupKind[] = ['daily', 'manual', 'pre-migration', 'pre-restore', 'move'];

export interface BackupTable extends TableCheck { columns: string[] }

export interface BackupHeader {
  format: number;
  app: { name: string; version: string };
  createdAt: string;
  kind: BackupKind;
  /** Where it was taken from: the shop's own PostgreSQL or DATABASE_URL's. */
  source: 'embedded' | 'postgres';
  migration: MigrationId;
  tables: BackupTable[];
  sequences: SequencePosition[];
}

/** A file that is not a backup this release can restore: the message says why; nothing was changed. */
export class BackupFileError extends Error {}

/** `pos-2026-11-25T11-03-27-123Z-daily.posbak`: sortable, the time in UTC. */
export const FILE_NAME = /^pos-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z-([a-z-]+)\.posbak$/;

export function backupFileName(at: Date, kind: BackupKind): string {
  return `pos-${at.toISOString().replace(/[:.]/g, '-')}-${kind}.posbak`;
}

/** The time and kind a file name carries, or undefined for a name that is not one of ours. */
export function parseBackupName(name: string): { at: Date; kind: BackupKind } | undefined {
  const m = FILE_NAME.exec(name);
  if (!m || !BACKUP_KINDS.includes(m[6] as BackupKind)) return undefined;
  const at = new Date(`${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z`);
  return Number.isNaN(at.getTime()) ? undefined : { at, kind: m[6] as BackupKind };
}

/** Reads a backup file front to back: the header, then each table's rows. */
export class BackupReader {
  private readonly chunks: AsyncIterator<Buffer>;
  private buf: Buffer = Buffer.alloc(0);
  private ended = false;
  private readonly input: fs.ReadStream;
  private readonly gunzip: zlib.Gunzip;

  constructor(readonly file: string) {
    this.input = fs.createReadStream(file);
    this.gunzip = zlib.createGunzip();
    this.input.on('error', (e) => this.gunzip.destroy(e));
    this.input.pipe(this.gunzip);
    this.chunks = this.gunzip[Symbol.asyncIterator]();
  }

  private async more(): Promise<boolean> {
    if (this.ended) return false;
    let next: IteratorResult<Buffer>;
    try {
      next = await this.chunks.next();
    } catch (e) {
      throw new BackupFileError(`${path.basename(this.file)} is damaged or cut short (${(e as Error).message}).`);
    }
    if (next.done) { this.ended = true; return false; }
    this.buf = this.buf.length ? Buffer.concat([this.buf, next.value]) : next.value;
    return true;
  }

  /** One line (without its newline), at most `max` bytes; undefined at the end of the file. */
  private async line(max: number): Promise<string | undefined> {
    for (;;) {
      const i = this.buf.indexOf(10);
      if (i >= 0) {
        const text = this.buf.subarray(0, i).toString('utf8');
        this.buf = this.buf.subarray(i + 1);
        return text;
      }
      if (this.buf.length > max) return undefined;
      if (!(await this.more())) return undefined;
    }
  }

  /** The header, checked: a foreign, damaged or newer-format file is a BackupFileError. */
  async header(): Promise<BackupHeader> {
    const name = path.basename(this.file);
    let head: Buffer;
    try {
      const fd = fs.openSync(this.file, 'r');
      head = Buffer.alloc(2);
      fs.readSync(fd, head, 0, 2, 0);
      fs.closeSync(fd);
    } catch (e) {
      throw new BackupFileError(`Cannot read ${this.file}: ${(e as Error).message}`);
    }
    if (head[0] !== 0x1f || head[1] !== 0x8b) throw new BackupFileError(`${name} is not a POS backup (not a compressed backup file).`);
    const magic = await this.line(64);
    const m = magic === undefined ? null : /^POS-BACKUP (\d+)$/.exec(magic);
    if (!m) throw new BackupFileError(`${name} is not a POS backup (it does not start with ${MAGIC}).`);
    if (Number(m[1]) > FORMAT) throw new BackupFileError(`${name} was written by a newer release (backup format ${m[1]}; this release reads format ${FORMAT}). Update the POS first.`);
    const json = await this.line(16 * 1024 * 1024);
    let header: BackupHeader;
    try {
      header = JSON.parse(json ?? '') as BackupHeader;
    } catch {
      throw new BackupFileError(`${name} is damaged: its header cannot be read.`);
    }
    if (!header || typeof header !== 'object' || !Array.isArray(header.tables) || !header.migration || typeof header.migration.hash !== 'string'
      || !Array.isArray(header.sequences) || header.tables.some((t) => typeof t?.table !== 'string' || !Array.isArray(t.columns) || typeof t.rows !== 'number')) {
      throw new BackupFileError(`${name} is damaged: its header is incomplete.`);
    }
    return header;
  }

  /** Writes the rows of the next table to `out` (without ending it); returns how many rows. */
  async pipeTable(out: Writable): Promise<number> {
    let rows = 0;
    for (;;) {
      let start = 0;
      let pos = 0;
      for (let i = this.buf.indexOf(10, pos); i >= 0; i = this.buf.indexOf(10, pos)) {
        if (i - pos === 2 && this.buf[pos] === 0x5c && this.buf[pos + 1] === 0x2e) {
          if (pos > start) await write(out, this.buf.subarray(start, pos));
          this.buf = this.buf.subarray(i + 1);
          return rows;
        }
        rows++;
        pos = i + 1;
      }
      if (pos > start) await write(out, this.buf.subarray(start, pos));
      this.buf = this.buf.subarray(pos);
      start = 0;
      if (!(await this.more())) throw new BackupFileError(`${path.basename(this.file)} is damaged or cut short (a table has no end).`);
    }
  }

  /** Whether anything but the end of the file is left (a well-formed file has nothing after its last table). */
  async atEnd(): Promise<boolean> {
    while (!this.buf.length) if (!(await this.more())) return true;
    return false;
  }

  close() {
    this.input.destroy();
    this.gunzip.destroy();
  }
}

function write(out: Writable, chunk: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error) => reject(e);
    out.once('error', onError);
    const ok = out.write(chunk);
    const done = () => { out.off('error', onError); resolve(); };
    if (ok) done(); else out.once('drain', done);
  });
}

/** The header of a backup file (for lists and checks), the rest not read. */
export async function readBackupHeader(file: string): Promise<BackupHeader> {
  const reader = new BackupReader(file);
  try {
    return await reader.header();
  } finally {
    reader.close();
  }
}
