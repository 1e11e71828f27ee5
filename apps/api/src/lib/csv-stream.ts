import { parse, CsvError } from 'csv-parse';
import { validationError } from '@pos/domain/errors';

/** One record of an uploaded CSV: its cells, its row (1 = header; blank lines not counted) and the file line it starts on. */
export interface CsvRecord { cells: string[]; row: number; line: number }

/**
 * Reads a CSV upload as a stream and yields its records one by one (csv-parse, incremental; the
 * file is never held in memory as a whole). RFC 4180 quoting, CRLF or LF, a leading BOM skipped,
 * blank lines skipped. Bytes that are not UTF-8 become U+FFFD and `state.invalidUtf8` is set, so the
 * caller can name the cell; a CSV syntax error is a 422 naming the row and column.
 */
export async function* csvRecords(source: AsyncIterable<Buffer | string>, state: { invalidUtf8: boolean; header?: string[] }): AsyncGenerator<CsvRecord> {
  const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: false, info: true });
  const feed = (async () => {
    let strict = new TextDecoder('utf-8', { fatal: true });
    const lenient = new TextDecoder('utf-8');
    try {
      for await (const chunk of source) {
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
        let text: string;
        if (state.invalidUtf8) text = lenient.decode(bytes, { stream: true });
        else {
          try { text = strict.decode(bytes, { stream: true }); } catch {
            state.invalidUtf8 = true;
            strict = new TextDecoder('utf-8', { fatal: true });
            text = lenient.decode(bytes, { stream: true });
          }
        }
        if (parser.destroyed) break;
        if (text && !parser.write(text)) await new Promise((resolve) => { parser.once('drain', resolve); parser.once('close', resolve); });
      }
      if (parser.destroyed) return;
      const rest = state.invalidUtf8 ? lenient.decode() : strict.decode();
      if (rest) parser.write(rest);
      parser.end();
    } catch (e) {
      // Invalid UTF-8 split over the end of the file: the lenient decoder would have named it.
      if (e instanceof TypeError && !state.invalidUtf8) { state.invalidUtf8 = true; parser.write('\uFFFD'); parser.end(); return; }
      parser.destroy(e as Error);
    }
  })();
  let row = 0;
  let prevEnd = 0;
  let blanks = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const line = prevEnd + 1;
      prevEnd = info.lines;
      if (record.length === 1 && record[0] === '') { blanks++; continue; } // a blank line
      row++;
      if (row === 1) state.header = record.map((h) => h.trim());
      yield { cells: record, row, line };
    }
  } catch (e) {
    if (!(e instanceof CsvError)) throw e;
    const err = e as CsvError & { records?: number; index?: number };
    const at = (err.records != null ? err.records - blanks : row) + 1;
    const column = at > 1 && state.header?.[err.index ?? -1] ? state.header[err.index!] : `column ${(err.index ?? 0) + 1}`;
    const message = err.code === 'CSV_QUOTE_NOT_CLOSED' ? 'Unterminated quoted cell.' : err.message.replace(/ at line \d+.*$/, '.');
    throw validationError([{ propertyPath: `row ${at}.${column}`, message }], `CSV syntax error in row ${at}; nothing was imported.`);
  } finally {
    if (!parser.writableEnded) parser.destroy();
    await feed;
  }
}
