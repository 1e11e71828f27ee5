/**
 * Registers the till's service worker (dist/sw.js, built by vite.config.ts) so the app shell loads
 * with no network (issue 9). Production builds only: the dev server has no sw.js.
 */
export function registerServiceWorker(): void {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  const register = () => void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
