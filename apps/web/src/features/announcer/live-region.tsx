import { useStore } from '@/features/catalogue-cache/create-store';
import { announcements } from './announce';
import { useTillAnnouncements } from './use-till-announcements';

/**
 * Two always-present, visually hidden live regions (a status and an alert): screen readers only
 * read changes of a region that was already on the page. The same text said again gets a
 * different invisible suffix so it is a change.
 */
export function LiveRegion() {
  const { text, politeness, seq } = useStore(announcements, (a) => a);
  const said = text ? `${text}${seq % 2 ? '' : '\u00a0'}` : '';
  return (
    <>
      <div className="visually-hidden" role="status" aria-live="polite" aria-atomic="true" data-testid="announcer-polite">
        {politeness === 'polite' ? said : ''}
      </div>
      <div className="visually-hidden" role="alert" aria-live="assertive" aria-atomic="true" data-testid="announcer-assertive">
        {politeness === 'assertive' ? said : ''}
      </div>
    </>
  );
}

/** The till's live region with its announcements (mounted once by the till screen). */
export function TillAnnouncer() {
  useTillAnnouncements();
  return <LiveRegion />;
}
