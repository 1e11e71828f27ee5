/**
 * Creates an administrator for a real install:
 *   npm run user:create -- --username owner --password 'secret' [--display-name Owner] [--email x@y] [--store "My Shop"]
 * With --store, the store is created when no store of that name exists, and the user joins it.
 */
import { parseArgs } from 'node:util';
import { eq } from 'drizzle-orm';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { store, storeCounter, userAccount, userStore } from '../db/schema/index.ts';
import { hashPassword } from '../lib/passwords.ts';

const { values } = parseArgs({
  options: {
    username: { type: 'string' },
    password: { type: 'string' },
    'display-name': { type: 'string' },
    email: { type: 'string' },
    store: { type: 'string' },
    role: { type: 'string', default: 'ROLE_ADMIN' },
  },
});
if (!values.username || !values.password) {
  console.error('usage: npm run user:create -- --username NAME --password SECRET [--display-name N] [--email E] [--store STORE] [--role ROLE_ADMIN|ROLE_USER]');
  process.exit(2);
}
if (values.password.length < 5) {
  console.error('password must have at least 5 characters');
  process.exit(2);
}
const config = loadConfig();
const database = await openDatabase(config);
await database.migrate();
const { db } = database;
const existing = await db.select().from(userAccount).where(eq(userAccount.username, values.username));
if (existing.length) {
  console.error(`user ${values.username} already exists`);
  await database.close();
  process.exit(1);
}
const roles = values.role === 'ROLE_USER' ? ['ROLE_USER'] : ['ROLE_ADMIN', 'ROLE_USER'];
const hash = await hashPassword(values.password, config.bcryptRounds);
await db.transaction(async (tx) => {
  const [user] = await tx.insert(userAccount).values({
    username: values.username!, password: hash, displayName: values['display-name'] ?? values.username!, email: values.email ?? null, roles,
  }).returning();
  if (values.store) {
    let [s] = await tx.select().from(store).where(eq(store.name, values.store));
    if (!s) {
      [s] = await tx.insert(store).values({ name: values.store }).returning();
      await tx.insert(storeCounter).values({ storeId: s.id });
    }
    await tx.insert(userStore).values({ userId: user.id, storeId: s.id });
  }
});
console.log(`created ${roles.includes('ROLE_ADMIN') ? 'administrator' : 'user'} ${values.username}${values.store ? ` in store "${values.store}"` : ''}`);
await database.close();
