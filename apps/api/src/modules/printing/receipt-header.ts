/** The receipt's header and footer: the shop's 'sale_receipt' settings (shop name, footer text). */
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { setting } from '../../db/schema/index.ts';

export const RECEIPT_FOOTER = 'Thank you for your visit';

export interface ReceiptSettings {
  shopName: string;
  footer: string;
  /** The shop's logo (setting 'receipt_logo': a data:image/png;base64 URL of at most 256 KB), printed at the top. */
  logo?: Buffer;
}

const LOGO_URL = /^data:image\/png;base64,([A-Za-z0-9+/=\s]+)$/;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
export const MAX_LOGO_BYTES = 256 * 1024;

/** The PNG of a 'receipt_logo' value; anything else (not a PNG, too big) is no logo. */
export function logoOf(value: string | null | undefined): Buffer | undefined {
  const m = value ? LOGO_URL.exec(value.trim()) : null;
  if (!m) return undefined;
  const png = Buffer.from(m[1], 'base64');
  return png.length <= MAX_LOGO_BYTES && png.subarray(0, 8).equals(PNG_SIGNATURE) ? png : undefined;
}

export async function receiptSettings(db: Db): Promise<ReceiptSettings> {
  const rows = await db.select().from(setting).where(eq(setting.type, 'sale_receipt'));
  const get = (name: string) => rows.find((r) => r.name === name)?.value?.trim();
  return { shopName: get('shop_name') || 'Shop name', footer: get('receipt_footer') || RECEIPT_FOOTER, logo: logoOf(get('receipt_logo')) };
}

