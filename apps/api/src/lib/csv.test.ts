import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CsvSyntaxError, csvNumber, firstInvalidUtf8, formatCell, formatRow, parseCsv, unneutralise } from './csv.ts';

describe('csv', () => {
  it('parses RFC 4180: quotes, doubled quotes, embedded commas and line breaks, CRLF', () => {
    const text = 'a,b,c\r\n"x, y","say ""hi""","two\r\nlines"\r\n\r\n1,,3\n';
    expect(parseCsv(text).rows).toEqual([['a', 'b', 'c'], ['x, y', 'say "hi"', 'two\r\nlines'], ['1', '', '3']]);
  });

  it('names row and column of a syntax error', () => {
    expect(() => parseCsv('a,b\n1,"open')).toThrow(CsvSyntaxError);
    try { parseCsv('a,b\n1,"x"y'); } catch (e) { expect(e).toMatchObject({ row: 2, column: 2 }); }
  });

  it('neutralises formula cells and undoes it on the way back', () => {
    expect(formatCell('=SUM(A1:A9)')).toBe("'=SUM(A1:A9)");
    expect(formatCell('+1')).toBe("'+1");
    expect(formatCell('-5')).toBe("'-5");
    expect(formatCell(csvNumber('-5.00'))).toBe('-5.00'); // a figure the server computed stays a number
    expect(() => csvNumber('-2+3')).toThrow(RangeError);
    expect(formatCell('@cmd')).toBe("'@cmd");
    expect(formatCell('a,b')).toBe('"a,b"');
    expect(unneutralise("'=SUM(A1:A9)")).toBe('=SUM(A1:A9)');
    expect(unneutralise("'quoted")).toBe("'quoted");
    expect(unneutralise(formatCell("'=x"))).toBe("'=x");
  });

  it('round-trips any table of cells (property)', () => {
    fc.assert(fc.property(fc.array(fc.array(fc.string({ unit: 'grapheme' }), { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 8 }), (table) => {
      const rows = table.filter((r) => !(r.length === 1 && r[0] === ''));
      const text = rows.map((r) => formatRow(r)).join('');
      expect(parseCsv(text).rows.map((r) => r.map(unneutralise))).toEqual(rows);
    }), { numRuns: 300 });
  });

  it('finds the first invalid UTF-8 byte exactly where a strict decoder fails (property)', () => {
    const strict = new TextDecoder('utf-8', { fatal: true });
    fc.assert(fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
      let valid = true;
      try { strict.decode(bytes); } catch { valid = false; }
      expect(firstInvalidUtf8(bytes) === -1).toBe(valid);
    }), { numRuns: 2000 });
    expect(firstInvalidUtf8(Buffer.from('héllo €', 'utf8'))).toBe(-1);
    expect(firstInvalidUtf8(Buffer.from([0x61, 0x62, 0xff, 0x63]))).toBe(2);
    expect(firstInvalidUtf8(Buffer.from([0xed, 0xa0, 0x80]))).toBe(0); // a UTF-16 surrogate
    expect(firstInvalidUtf8(Buffer.from([0xc0, 0xaf]))).toBe(0); // overlong
  });
});
