import bcrypt from 'bcryptjs';

// A real hash to compare against when the user does not exist: unknown user and wrong password cost the same.
const DUMMY_HASH = '$2b$10$CwTycUXWue0Thq9StjUM0uJ8.4Zx8Hq1m1V6kqG1bQ0s8b3Vh0y3K';

export function hashPassword(password: string, rounds: number): Promise<string> {
  return bcrypt.hash(password, rounds);
}

/** Verifies bcrypt ($2a/$2b/$2y) hashes; always does the work, even with no user. */
export async function verifyPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  const ok = await bcrypt.compare(password, hash ?? DUMMY_HASH);
  return Boolean(hash) && ok;
}
