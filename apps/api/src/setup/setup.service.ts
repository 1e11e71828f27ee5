import { sql } from 'drizzle-orm';
import { conflict } from '@pos/domain/errors';
import type { Db } from '../db/client.ts';
import { paymentStore, paymentType, setting, store, storeCounter, terminal, userAccount, userStore } from '../db/schema/index.ts';
import { hashPassword } from '../lib/passwords.ts';

export interface SetupInput {
  shopName: string;
  currency: string;
  timeZone: string;
  username: string;
  password: string;
  displayName?: string;
  email?: string | null;
}

/** True while the database has no user at all: the first-run setup is open. */
export async function setupNeeded(db: Db): Promise<boolean> {
  const rows = await db.select({ id: userAccount.id }).from(userAccount).limit(1);
  return rows.length === 0;
}

/**
 * Creates the shop of a fresh install in one transaction: the store (with its order counter, a till
 * and a Cash payment), the shop's currency and time zone (settings of type 'shop'), and the owner as
 * administrator. The user table is locked first, so two setups racing end with one owner and a 409.
 */
export async function runSetup(db: Db, input: SetupInput, bcryptRounds: number) {
  const hash = await hashPassword(input.password, bcryptRounds);
  return db.transaction(async (tx) => {
    await tx.execute(sql`lock table user_account in share row exclusive mode`);
    const existing = await tx.select({ id: userAccount.id }).from(userAccount).limit(1);
    if (existing.length) throw conflict('This shop is already set up; sign in instead.');
    const [shop] = await tx.insert(store).values({ name: input.shopName }).returning();
    await tx.insert(storeCounter).values({ storeId: shop.id });
    await tx.insert(terminal).values({ code: 'T1', description: 'Till 1', storeId: shop.id });
    const [cash] = await tx.insert(paymentType).values({ name: 'Cash', type: 'cash', canHaveChangeDue: true }).returning();
    await tx.insert(paymentStore).values({ ownerId: cash.id, storeId: shop.id });
    await tx.insert(setting).values([
      { name: 'currency', value: input.currency, type: 'shop', description: 'Shop currency (ISO 4217)' },
      { name: 'time_zone', value: input.timeZone, type: 'shop', description: 'Shop time zone (IANA)' },
    ]);
    const [owner] = await tx.insert(userAccount).values({
      username: input.username, password: hash, displayName: input.displayName || input.username, email: input.email ?? null, roles: ['ROLE_ADMIN', 'ROLE_USER'],
    }).returning();
    await tx.insert(userStore).values({ userId: owner.id, storeId: shop.id });
    return { store: { id: shop.id, name: shop.name }, user: { id: owner.id, username: owner.username } };
  });
}
