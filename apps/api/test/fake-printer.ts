/**
 * A network receipt printer for tests (issue 26): a TCP server on 127.0.0.1 that keeps the bytes
 * of every connection, and a decoder of what an ESC/POS printer does with them, written from the
 * command reference (not with our encoder). Used by the API tests and the Playwright journey.
 */
import net from 'node:net';

/** A network receipt printer: every connection's bytes, in order. */
export class FakePrinter {
  jobs: Buffer[] = [];
  /** What the paper sensor says to DLE EOT 4; null: a printer that does not answer status queries. */
  paper: 'ok' | 'out' | null = 'ok';
  private server = net.createServer((s) => {
    const chunks: Buffer[] = [];
    s.on('data', (c) => {
      // DLE EOT 4 (paper roll sensor): 0x12 fixed bits, + 0x60 when the paper has run out.
      if (c[0] === 0x10 && c[1] === 0x04 && c[2] === 0x04 && this.paper) s.write(Buffer.from([this.paper === 'out' ? 0x72 : 0x12]));
      chunks.push(c);
    });
    s.on('end', () => { this.jobs.push(Buffer.concat(chunks)); s.end(); });
  });
  constructor(public port = 0) {}
  async start(): Promise<this> {
    await new Promise<void>((r) => this.server.listen(this.port, '127.0.0.1', r));
    this.port = (this.server.address() as net.AddressInfo).port;
    return this;
  }
  /** The bytes of connection `i` once they have all arrived. */
  async job(i: number): Promise<Buffer> {
    for (let n = 0; n < 100 && this.jobs.length <= i; n++) await new Promise((r) => setTimeout(r, 20));
    return this.jobs[i];
  }
  stop() { return new Promise<void>((r) => this.server.close(() => r())); }
}

/**
 * What an ESC/POS printer does with the bytes, decoded by hand from the command reference (not by
 * our encoder): the printed text (line feeds kept), the cuts (GS V), the drawer kicks (ESC p), the
 * raster images (GS v 0) and the barcodes (GS k).
 */
export interface RasterImage {
  width: number;
  height: number;
  black: number;
  /** The rows, `width / 8` bytes each, most significant bit leftmost, 1 = a black dot. */
  data: Buffer;
  /** Where the command began and ended in the bytes (a picture sent in bands: one band's end is the next one's start). */
  start: number;
  end: number;
}

/** A barcode printed with GS k: its symbology and the data it encodes (for Code 128, without the code set selections). */
export interface PrintedBarcode { symbology: string; data: string }

/** GS k m: function A (m 0-6, data ended by NUL) and function B (m 65-79, length byte n) symbologies. */
const SYMBOLOGIES: Record<number, string> = {
  0: 'upca', 1: 'upce', 2: 'ean13', 3: 'ean8', 4: 'code39', 5: 'itf', 6: 'codabar',
  65: 'upca', 66: 'upce', 67: 'ean13', 68: 'ean8', 69: 'code39', 70: 'itf', 71: 'codabar', 72: 'code93', 73: 'code128',
  74: 'gs1-128', 75: 'gs1-databar-omni', 76: 'gs1-databar-truncated', 77: 'gs1-databar-limited', 78: 'gs1-databar-expanded', 79: 'code128-auto',
};

/**
 * The characters a Code 128 barcode (GS k 73) carries: the data starts with a code set selection
 * ({A, {B or {C); '{' followed by A/B/C switches set, '{S' shifts one character, '{1'..'{4' are
 * the function characters (not data), '{{' is a '{'. In code set C each byte (0-99) is two digits.
 */
function code128Data(d: Buffer): string {
  let set = '';
  let out = '';
  for (let j = 0; j < d.length; j++) {
    if (d[j] === 0x7b && j + 1 < d.length) { // '{'
      const f = String.fromCharCode(d[++j]);
      if (f === 'A' || f === 'B' || f === 'C') set = f;
      else if (f === '{') out += '{';
      else if (f === 'S' && j + 1 < d.length) out += String.fromCharCode(d[++j]);
      continue; // '{1'..'{4': function characters
    }
    out += set === 'C' ? String(d[j]).padStart(2, '0') : String.fromCharCode(d[j]);
  }
  return out;
}

export function decode(b: Buffer): { text: string; cuts: number; kicks: number; images: RasterImage[]; barcodes: PrintedBarcode[] } {
  let text = '';
  let cuts = 0;
  let kicks = 0;
  const images: RasterImage[] = [];
  const barcodes: PrintedBarcode[] = [];
  for (let i = 0; i < b.length;) {
    const c = b[i];
    if (c === 0x1b) { // ESC
      const op = String.fromCharCode(b[i + 1]);
      if (op === 'p') { kicks++; i += 5; } else if (op === '@') i += 2; else i += 3; // ESC E/a/t/M/-/d n
    } else if (c === 0x1d) { // GS
      const op = String.fromCharCode(b[i + 1]);
      if (op === 'V') { cuts++; i += b[i + 2] >= 65 ? 4 : 3; } else if (op === 'k') { // GS k m: a barcode
        const m = b[i + 2];
        let data: Buffer;
        if (m >= 65) { data = b.subarray(i + 4, i + 4 + b[i + 3]); i += 4 + b[i + 3]; } // function B: GS k m n d1..dn
        else { const end = b.indexOf(0x00, i + 3); data = b.subarray(i + 3, end < 0 ? b.length : end); i = end < 0 ? b.length : end + 1; } // function A: GS k m d1..dk NUL
        const symbology = SYMBOLOGIES[m] ?? `m=${m}`;
        barcodes.push({ symbology, data: symbology === 'code128' ? code128Data(data) : data.toString('latin1') });
      }
      else if (op === 'v' && b[i + 2] === 0x30) { // GS v 0 m xL xH yL yH d1...dk: a raster image, x bytes (8 dots each) by y dots
        const x = b[i + 4] + 256 * b[i + 5];
        const y = b[i + 6] + 256 * b[i + 7];
        const data = b.subarray(i + 8, i + 8 + x * y);
        let black = 0;
        for (const byte of data) for (let bit = 0; bit < 8; bit++) black += (byte >> bit) & 1;
        images.push({ width: x * 8, height: y, black, data: Buffer.from(data), start: i, end: i + 8 + x * y });
        i += 8 + x * y;
      } else i += 3; // GS ! h w H n
    } else if (c === 0x1c) i += 2; // FS .
    else if (c === 0x10) i += 3; // DLE EOT n (a status query)
    else { if (c === 0x0a || (c >= 0x20 && c < 0x7f)) text += String.fromCharCode(c); i++; }
  }
  return { text, cuts, kicks, images, barcodes };
}
export const printed = (b: Buffer) => decode(b).text;

/** The pictures printed: raster bands that follow one another directly, joined into one picture each. */
export function pictures(b: Buffer): Array<{ width: number; height: number; dot: (x: number, y: number) => boolean }> {
  const out: Array<{ width: number; height: number; data: Buffer; end: number }> = [];
  for (const im of decode(b).images) {
    const last = out[out.length - 1];
    if (last && last.end === im.start && last.width === im.width) Object.assign(last, { height: last.height + im.height, data: Buffer.concat([last.data, im.data]), end: im.end });
    else out.push({ width: im.width, height: im.height, data: im.data, end: im.end });
  }
  return out.map(({ width, height, data }) => ({ width, height, dot: (x: number, y: number) => ((data[y * (width / 8) + (x >> 3)] >> (7 - (x & 7))) & 1) === 1 }));
}


/** A loopback port nothing listens on (a printer that is off). */
export async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
