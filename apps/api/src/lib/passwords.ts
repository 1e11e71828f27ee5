import bcrypt from 'bcryptjs';

// A real hash at the configured cost to compare against when the user does not exist, so an unknown
// user and a wrong password cost the same time. Derived, not state: every process computes the same kind.
const dummyHashes = new Map<number, Promise<string>>();
function dummyHash(rounds: number): Promise<string> {
  let h = dummyHashes.get(rounds);
  if (!h) { h = bcrypt.hash('not-a-password-' + rounds, rounds); dummyHashes.set(rounds, h); }
  return h;
}

export function hashPassword(password: string, rounds: number): Promise<string> {
  return bcrypt.hash(password, rounds);
}

/** Verifies bcrypt ($2a/$2b/$2y) hashes; always does the work, even with no user. */
export async function verifyPassword(password: string, hash: string | null | undefined, rounds = 10): Promise<boolean> {
  const ok = await bcrypt.compare(password, hash ?? (await dummyHash(rounds)));
  return Boolean(hash) && ok;
}
