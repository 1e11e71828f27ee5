/** The receipt's header and footer: the shop's 'sale_receipt' settings (shop name, footer text). */
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { setting } from '../../db/schema/index.ts';

export const RECEIPT_FOOTER = 'Thank you for your visit';

export interface ReceiptSettings { shopName: string; footer: string }

export async function receiptSettings(db: Db): Promise<ReceiptSettings> {
  const rows = await db.select().from(setting).where(eq(setting.type, 'sale_receipt'));
  const get = (name: string) => rows.find((r) => r.name === name)?.value?.trim();
  return { shopName: get('shop_name') || 'Shop name', footer: get('receipt_footer') || RECEIPT_FOOTER };
}

