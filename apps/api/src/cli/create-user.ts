/**
 * Creates an administrator for a real install (scripts; people use the first-run setup page):
 *   npm run user:create -- --username owner [--display-name Owner] [--email x@y] [--store "My Shop"]
 * The password is asked at a prompt (not echoed), or read from the first line of stdin when piped:
 *   printf '%s\n' "$PASSWORD" | npm run user:create -- --username owner
 * never from argv, where `ps` and the shell history would show it.
 * With --store, the store is created when no store of that name exists, and the user joins it.
 */
import { parseArgs } from 'node:util';
import { readPassword } from './read-password.ts';
import { eq } from 'drizzle-orm';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { store, storeCounter, userAccount, userStore } from '../db/schema/index.ts';
import { hashPassword } from '../lib/passwords.ts';

if (process.argv.some((a) => a === '--password' || a.startsWith('--password='))) {
  console.error('--password is not accepted: the command line shows in `ps` and the shell history. Type it at the prompt, or pipe it on stdin.');
  process.exit(2);
}
const { values } = parseArgs({
  options: {
    username: { type: 'string' },
    'display-name': { type: 'string' },
    email: { type: 'string' },
    store: { type: 'string' },
    role: { type: 'string', default: 'ROLE_ADMIN' },
  },
});
if (!values.username) {
  console.error('usage: npm run user:create -- --username NAME [--display-name N] [--email E] [--store STORE] [--role ROLE_ADMIN|ROLE_USER]\n'
    + '  the password is asked at a prompt, or read from the first line of stdin');
  process.exit(2);
}
const password = await readPassword(`Password for ${values.username}: `);
if (password.length < 8) {
  console.error('password must have at least 8 characters');
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
const hash = await hashPassword(password, config.bcryptRounds);
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
