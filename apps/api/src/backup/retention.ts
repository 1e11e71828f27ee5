/**
 * Which automatic (daily) backups are kept: the newest of each of the last 14 days that have one,
 * and the newest of each of the last 8 weeks (Monday to Sunday, UTC) that have one. Backups taken
 * by hand, before a migration, before a restore or for a move are never removed automatically.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseBackupName } from './backup-file.ts';

export interface Retention { daily: number; weekly: number }
export const DEFAULT_RETENTION: Retention = { daily: 14, weekly: 8 };

/** The Monday (UTC) of the week of `at`, as YYYY-MM-DD. */
function weekOf(at: Date): string {
  const monday = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() - ((at.getUTCDay() + 6) % 7)));
  return monday.toISOString().slice(0, 10);
}

/** Splits backup file names into those kept and those to remove (only daily ones are ever removed). */
export function retentionPlan(names: string[], keep: Retention = DEFAULT_RETENTION): { keep: string[]; remove: string[] } {
  const daily = names.map((name) => ({ name, parsed: parseBackupName(name) }))
    .filter((f) => f.parsed?.kind === 'daily')
    .sort((a, b) => b.parsed!.at.getTime() - a.parsed!.at.getTime());
  const kept = new Set<string>();
  const newestPer = (key: (at: Date) => string, count: number) => {
    const seen = new Set<string>();
    for (const f of daily) {
      const k = key(f.parsed!.at);
      if (seen.has(k)) continue;
      if (seen.size >= count) break;
      seen.add(k);
      kept.add(f.name);
    }
  };
  newestPer((at) => at.toISOString().slice(0, 10), keep.daily);
  newestPer(weekOf, keep.weekly);
  const remove = daily.map((f) => f.name).filter((n) => !kept.has(n));
  return { keep: names.filter((n) => !remove.includes(n)), remove };
}

/** Removes the daily backups in `dir` that retention does not keep; returns their names. */
export function applyRetention(dir: string, keep: Retention = DEFAULT_RETENTION): string[] {
  if (!fs.existsSync(dir)) return [];
  const { remove } = retentionPlan(fs.readdirSync(dir), keep);
  for (const name of remove) fs.rmSync(path.join(dir, name), { force: true });
  return remove;
}
