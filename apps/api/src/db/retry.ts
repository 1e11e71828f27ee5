/** Database errors and the retry of a transaction that lost a race (shared by sales and stock operations). */

/** The SQLSTATE of a database error, looking through Drizzle's wrapper. */
export function pgCode(e: unknown): string | undefined {
  let cur: any = e;
  for (let i = 0; i < 4 && cur; i++) {
    if (typeof cur.code === 'string' && /^[0-9A-Z]{5}$/.test(cur.code)) return cur.code;
    cur = cur.cause;
  }
  return undefined;
}

/** Re-runs a transaction that lost a deadlock or a serialization race (PostgreSQL picks a victim). */
export async function withRetry<T>(fn: () => Promise<T>, attempts = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (e) {
      const code = pgCode(e);
      if ((code === '40P01' || code === '40001') && i < attempts) {
        await new Promise((r) => setTimeout(r, 5 * i + Math.random() * 20));
        continue;
      }
      throw e;
    }
  }
}
