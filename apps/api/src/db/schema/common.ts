import { boolean, numeric, timestamp, uuid as pgUuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';

/** Exact money: numeric(20,3) (issue 19: KWD, BHD have 3 minor digits; ARCHITECTURE.md "Money"). Drizzle hands it back as a string; `@pos/domain/money` parses it to minor units of the store's currency. */
export const money = (name: string) => numeric(name, { precision: 20, scale: 3 });
/** Quantities may be fractional (weighed goods), so three decimals. */
export const qty = (name: string) => numeric(name, { precision: 20, scale: 3 });
/** Percent rates like 16.5. */
export const rate = (name: string) => numeric(name, { precision: 10, scale: 2 });

export const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
};
export const active = { isActive: boolean('is_active').notNull().default(true) };
export const uuidCol = { uuid: pgUuid('uuid').notNull().default(sql`gen_random_uuid()`) };
