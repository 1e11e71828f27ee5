import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, pipeline } from 'node:stream';
import zlib from 'node:zlib';

/**
 * Kept full catalogues (issue 24: a till's cold start). Reading 100,000 products out of
 * PostgreSQL as JSON takes seconds of the server (a million, most of a minute), and every till
 * that starts empty asks for the same catalogue: the tills of one store see the same products.
 * The compressed answer of a full sync is kept, by what its content depends on (the caller's
 * stores, whether they may see costs), in a file of the process's own temporary folder for
 * `maxAgeMs`, and the next till with the same stores is sent those bytes.
 *
 * A kept answer is an earlier snapshot: its cursor is the one it was read at, so the till's next
 * sync (`?since=` that cursor, which the loader asks at once) brings what changed since: an
 * answer from the kept file is exactly what that till would have had, had it started then.
 * Nothing here decides what a till may see: the key is what the content was read for. Each API
 * process keeps its own (a cache: another process, or this one after a restart, reads again).
 *
 * The answer ends with the caller's own user id (`,"userId":N}`), so the kept part is the
 * answer up to it, compressed as raw deflate that stops on a byte boundary without a last block
 * (Z_SYNC_FLUSH). An answer is the gzip header, the kept part, the caller's end compressed on its
 * own (a last block), and the gzip trailer: the CRC-32 of the whole text (the kept part's,
 * continued over the end) and its length. Valid gzip, one member, whatever the browser.
 */
export interface KeptCatalogue {
  file: string;
  /** Bytes of the file (the compressed part). */
  bytes: number;
  /** CRC-32 and length (bytes, modulo 2^32 as gzip keeps it) of the text the file compresses. */
  crc: number;
  length: number;
  /** When it was read (Date.now()). */
  at: number;
}

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

/** The caller's end of an answer, compressed on its own, and the gzip trailer over the whole text. */
function ending(kept: Pick<KeptCatalogue, 'crc' | 'length'>, end: string): Buffer {
  const text = Buffer.from(end, 'utf8');
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(zlib.crc32(text, kept.crc) >>> 0, 0);
  trailer.writeUInt32LE((kept.length + text.length) % 2 ** 32, 4);
  return Buffer.concat([zlib.deflateRawSync(text, { level: 4 }), trailer]);
}

/** Resolves when the file takes writes again, or is closed (after an error: the caller checks). */
function drained(out: fs.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    const done = () => { out.off('drain', done); out.off('close', done); resolve(); };
    out.on('drain', done);
    out.on('close', done);
  });
}

export class CatalogueKeeper {
  private readonly kept = new Map<string, KeptCatalogue>();
  private dir: string | null = null;
  private seq = 0;

  /** `maxAgeMs`: how long an answer is sent again; `most`: answers kept at once (the oldest go first). */
  constructor(readonly maxAgeMs: number, readonly most = 8) {}

  /** The kept answer for `key`, if young enough. */
  get(key: string, now = Date.now()): KeptCatalogue | null {
    const k = this.kept.get(key);
    if (!k) return null;
    if (now - k.at >= this.maxAgeMs) {
      this.drop(key);
      return null;
    }
    return k;
  }

  /** The whole gzip answer from a kept part and the caller's end; its length in bytes. */
  answer(kept: KeptCatalogue, end: string): { body: Readable; bytes: number } {
    const tail = ending(kept, end);
    // Opened now: a newer answer may replace this one (its file unlinked) before the first byte is
    // read, and an open file is read to its end even once unlinked.
    const file = fs.createReadStream('', { fd: fs.openSync(kept.file, 'r'), highWaterMark: 256 * 1024 });
    async function* pieces() {
      yield GZIP_HEADER;
      for await (const chunk of file) yield chunk as Buffer;
      yield tail;
    }
    const body = Readable.from(pieces(), { objectMode: false });
    // However the answer ends (read, client gone before a byte), the file is closed.
    body.once('close', () => file.destroy());
    return { body, bytes: GZIP_HEADER.length + kept.bytes + tail.length };
  }

  /**
   * A full answer read now: `text` gives its pieces up to the caller's end (`end`). Returns the
   * gzip answer, which is also written to a file and kept for `key` once it was read to its end
   * (a broken read keeps nothing).
   */
  record(key: string, text: AsyncIterable<string>, end: string): Readable {
    const at = Date.now();
    // Keeping off (CATALOGUE_KEEP_S=0): the same answer, nothing written.
    const file = this.maxAgeMs > 0 ? path.join(this.folder(), `${++this.seq}.deflate`) : null;
    const keep = (k: KeptCatalogue) => this.keep(key, k);
    let crc = 0;
    let length = 0;
    async function* plain() {
      for await (const piece of text) {
        const b = Buffer.from(piece, 'utf8');
        crc = zlib.crc32(b, crc);
        length = (length + b.length) % 2 ** 32;
        yield b;
      }
    }
    async function* pieces() {
      const source = Readable.from(plain(), { objectMode: false });
      const deflated = zlib.createDeflateRaw({ level: 4, finishFlush: zlib.constants.Z_SYNC_FLUSH });
      // An error of the source (the database) destroys the deflate stream with it: the loop below throws.
      pipeline(source, deflated, () => {});
      const out = file ? fs.createWriteStream(file) : null;
      // A file that cannot be written (the disk full, the folder gone) is given up, not the answer.
      let broken = !out;
      out?.on('error', () => { broken = true; });
      let bytes = 0;
      let done = false;
      try {
        yield GZIP_HEADER;
        for await (const b of deflated as AsyncIterable<Buffer>) {
          bytes += b.length;
          if (!broken && out && !out.write(b)) await drained(out);
          yield b;
        }
        if (!broken && out && file) {
          await new Promise<void>((resolve) => out.end(() => resolve()));
          if (!broken) keep({ file, bytes, crc, length, at });
        }
        done = !broken;
        yield ending({ crc, length }, end);
      } finally {
        if (!done) {
          // The till went away, the read failed, or the file could not be written: nothing is kept
          // (and the source's end ends the database snapshot).
          source.destroy();
          deflated.destroy();
          out?.destroy();
          if (file) fs.rm(file, { force: true }, () => {});
        }
      }
    }
    return Readable.from(pieces(), { objectMode: false });
  }

  /** Forgets every kept answer and removes the folder (the app's close). */
  close(): void {
    this.kept.clear();
    if (this.dir) fs.rmSync(this.dir, { recursive: true, force: true });
    this.dir = null;
  }

  private keep(key: string, k: KeptCatalogue) {
    this.drop(key);
    this.kept.set(key, k);
    while (this.kept.size > this.most) this.drop(this.kept.keys().next().value as string);
  }

  private drop(key: string) {
    const k = this.kept.get(key);
    if (!k) return;
    this.kept.delete(key);
    fs.rm(k.file, { force: true }, () => {});
  }

  private folder(): string {
    this.dir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'pos-catalogue-'));
    return this.dir;
  }
}
