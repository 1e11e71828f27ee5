/**
 * RFC 4180 CSV: parse and format, plus the checks an upload needs (UTF-8 validity, formula
 * neutralisation). Uploads are parsed as a stream by csv-stream.ts (csv-parse).
 */
import type { FastifyReply } from 'fastify';

export interface ParsedCsv {
  rows: string[][];
  /** 1-based file line where each row starts (quoted cells may span lines). */
  lines: number[];
}

export class CsvSyntaxError extends Error {
  constructor(readonly row: number, readonly column: number, message: string) {
    super(message);
  }
}

/**
 * Parses CSV text (comma separator, '"' quotes with '""' escapes, CRLF or LF line ends). Blank lines
 * are skipped. Throws CsvSyntaxError naming the row (1-based, counting the header) and column.
 */
export function parseCsv(text: string): ParsedCsv {
  const rows: string[][] = [];
  const lines: number[] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false; // inside a quoted cell
  let closed = false; // just after the closing quote of a cell
  let line = 1;
  let rowLine = 1;
  const endRow = () => {
    row.push(cell);
    // A line with nothing on it is skipped (a trailing newline, blank lines).
    if (!(row.length === 1 && row[0] === '' && !closed)) { rows.push(row); lines.push(rowLine); }
    row = []; cell = ''; closed = false;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') { cell += '"'; i++; } else { quoted = false; closed = true; }
      } else {
        if (c === '\n') line++;
        cell += c;
      }
      continue;
    }
    if (c === ',') { row.push(cell); cell = ''; closed = false; continue; }
    if (c === '\r' || c === '\n') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRow();
      line++;
      rowLine = line;
      continue;
    }
    if (closed) throw new CsvSyntaxError(rows.length + 1, row.length + 1, 'Unexpected text after a closing quote.');
    if (c === '"') {
      if (cell !== '') throw new CsvSyntaxError(rows.length + 1, row.length + 1, 'A quote may only start a cell.');
      quoted = true;
      continue;
    }
    cell += c;
  }
  if (quoted) throw new CsvSyntaxError(rows.length + 1, row.length + 1, 'Unterminated quoted cell.');
  if (cell !== '' || row.length || closed) endRow();
  return { rows, lines };
}

/** Cells a spreadsheet would run as a formula start with one of these. */
/** Already-neutralised-looking text ("'=x") gets one more apostrophe, so the round trip stays exact. */
const NEEDS_APOSTROPHE = /^'*[=+\-@\t\r]/;

/**
 * Formats one cell: a leading = + - @ (or tab/CR) is neutralised with a leading apostrophe (CSV
 * injection), then the cell is quoted when it holds a comma, quote, line break or edge spaces.
 */
export function formatCell(value: CsvValue): string {
  if (typeof value === 'object' && value !== null) return value.numeric;
  let s = value === null || value === undefined ? '' : String(value);
  if (NEEDS_APOSTROPHE.test(s)) s = `'${s}`;
  if (/[",\r\n]/.test(s) || /^\s|\s$/.test(s)) s = `"${s.replace(/"/g, '""')}"`;
  return s;
}

/** Undoes formatCell's neutralisation on import, so an export re-imports unchanged. */
export function unneutralise(s: string): string {
  return s.length > 1 && s[0] === "'" && NEEDS_APOSTROPHE.test(s.slice(1)) ? s.slice(1) : s;
}

/**
 * A figure the server computed, written as it is: a plain decimal number ("-5.00") is no formula,
 * so a negative amount stays a number a spreadsheet sums (text cells are still neutralised).
 */
export interface CsvNumber { numeric: string }
export type CsvValue = string | number | boolean | null | undefined | CsvNumber;
export function csvNumber(text: string): CsvNumber {
  if (!/^-?\d+(\.\d+)?$/.test(text)) throw new RangeError(`csvNumber: not a plain decimal number: ${JSON.stringify(text)}`);
  return { numeric: text };
}

export function formatRow(cells: CsvValue[]): string {
  return cells.map(formatCell).join(',') + '\r\n';
}

/**
 * Answers `format=csv` of a read-only report (reports, stock valuation): a header row and the rows,
 * as a download named `<name>.csv`, never cached.
 */
export function sendCsv(reply: FastifyReply, name: string, header: string[], rows: CsvValue[][]) {
  return sendCsvText(reply, name, header, rows.map((r) => formatRow(r)).join(''));
}

/** sendCsv with the rows already formatted (each line formatRow's, ending in CRLF): a report of 32,000 rows builds its lines directly. */
export function sendCsvText(reply: FastifyReply, name: string, header: string[], body: string) {
  return reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${name}.csv"`)
    .header('cache-control', 'no-store').send(formatRow(header) + body);
}

/** Byte offset of the first invalid UTF-8 sequence, or -1 when the buffer is valid UTF-8. */
export function firstInvalidUtf8(buf: Uint8Array): number {
  let i = 0;
  const n = buf.length;
  while (i < n) {
    const b = buf[i];
    if (b < 0x80) { i++; continue; }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) { need = 1; min = 0x80; } else if (b >= 0xe0 && b <= 0xef) { need = 2; min = 0x800; } else if (b >= 0xf0 && b <= 0xf4) { need = 3; min = 0x10000; } else return i;
    let cp = b & (need === 1 ? 0x1f : need === 2 ? 0x0f : 0x07);
    for (let k = 1; k <= need; k++) {
      const c = buf[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}
