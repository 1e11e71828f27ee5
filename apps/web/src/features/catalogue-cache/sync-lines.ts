/**
 * A full catalogue answer read as it arrives (GET /api/catalogue/sync writes its products one per
 * line: catalogue-sync.routes.ts). The rows are parsed a cache chunk at a time (CHUNK_SPAN ids)
 * from their own lines, and a chunk's text is its lines as they came: the whole catalogue is never
 * written out again as JSON for the cache (JSON.stringify of a million rows), the answer's text is
 * never held whole, and the parsing runs while the rest of the answer is still on its way (the
 * server reading it, the network, the browser's decompression). An answer in any other layout is
 * read whole and parsed as one text: the same payload.
 */
import type { ProductRow, SyncPayload } from '@pos/domain/catalogue-sync';
import { chunkOf, type ChunkText } from './product-sync';

/** What opens the products array; `"` and `[` inside a JSON string are escaped, so this is the array. */
const OPEN = '"products":[';
const NEWLINE = 10;
const CLOSE = 93; // ']'
const COMMA = 44;

export interface ReadAnswer {
  payload: SyncPayload;
  /** The cache chunks in key order, the texts of their lines; null when the answer was not read by lines (ProductSync makes them). */
  chunks: ChunkText[] | null;
}

export class LineReader {
  private text = '';
  /** The answer up to and including OPEN, once seen. */
  private head: string | null = null;
  /** The answer is not one product per line: it is kept whole and parsed at the end. */
  private whole = false;
  private readonly rows: ProductRow[] = [];
  private readonly chunks: ChunkText[] = [];
  private lines: string[] = [];
  private key = -1;
  private lastId = -1;
  /** Ids strictly ascending so far (the server's order): the rows need no sort, the chunks no regrouping. */
  private ordered = true;

  push(piece: string): void {
    this.text += piece;
    if (this.whole) return;
    if (this.head === null) {
      const at = this.text.indexOf(OPEN);
      const after = at + OPEN.length;
      if (at < 0 || this.text.length <= after) return;
      if (this.text.charCodeAt(after) !== NEWLINE) { this.whole = true; return; }
      this.head = this.text.slice(0, after);
      this.text = this.text.slice(after + 1);
    }
    this.takeLines();
  }

  /** The payload (its products: every row, in id order when `chunks` is set). Throws on a text that is not a whole answer. */
  end(): ReadAnswer {
    if (this.head === null || this.whole) return { payload: JSON.parse(this.text) as SyncPayload, chunks: null };
    this.flush();
    // What is left is the array's end and the rest of the answer: `]` and the fields after the products.
    if (this.text.charCodeAt(0) !== CLOSE) throw new SyntaxError('The catalogue answer ended before its products did');
    const payload = JSON.parse(this.head + this.text) as SyncPayload;
    payload.products = this.rows;
    return { payload, chunks: this.ordered ? this.chunks : null };
  }

  /** Every complete line of the text: a product row (its trailing comma dropped), grouped into chunks by id. */
  private takeLines(): void {
    const text = this.text;
    let from = 0;
    for (let nl = text.indexOf('\n', from); nl >= 0; nl = text.indexOf('\n', from)) {
      const end = text.charCodeAt(nl - 1) === COMMA ? nl - 1 : nl;
      const line = text.slice(from, end);
      from = nl + 1;
      const id = leadingId(line);
      const key = chunkOf(id);
      if (key !== this.key) this.flush();
      this.key = key;
      if (id <= this.lastId) this.ordered = false;
      this.lastId = id;
      this.lines.push(line);
    }
    if (from) this.text = text.slice(from);
  }

  /** The chunk being gathered: its text, and its rows parsed from it. */
  private flush(): void {
    if (!this.lines.length) return;
    const json = `[${this.lines.join(',')}]`;
    this.lines = [];
    for (const row of JSON.parse(json) as ProductRow[]) this.rows.push(row);
    this.chunks.push({ key: this.key, json });
  }
}

/** The id a row's line starts with (`[12, ...`); a line that does not start so fails when its chunk is parsed. */
function leadingId(line: string): number {
  let id = 0;
  for (let i = 1; i < line.length; i++) {
    const c = line.charCodeAt(i) - 48;
    if (c < 0 || c > 9) break;
    id = id * 10 + c;
  }
  return id;
}

/** Reads a full answer's body as it arrives (read whole where the runtime has no text decoder stream). */
export async function readFullAnswer(res: Response): Promise<ReadAnswer> {
  const lines = new LineReader();
  if (!res.body || typeof TextDecoderStream === 'undefined') {
    lines.push(await res.text());
    return lines.end();
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    lines.push(value);
  }
  return lines.end();
}
