/**
 * A Retry-After header as seconds (a number of seconds, or an HTTP date), null when absent or
 * unreadable. No imports: the catalogue worker uses it too.
 */
export function retryAfterSeconds(value: string | null | undefined, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}
