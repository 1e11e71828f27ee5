/**
 * Small line icons drawn inline (currentColor, 1em), for buttons that show a picture rather than a
 * word. Emoji are not used for this: a till or tablet without a colour-emoji font shows them as
 * empty boxes (issue 23.6). The button carries the accessible name; the icon is hidden from it.
 */
const svg = { width: '1em', height: '1em', viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', strokeWidth: 2, strokeLinecap: 'round', strokeLinejoin: 'round', 'aria-hidden': true, focusable: false } as const;

export function PrintIcon() {
  return (
    <svg {...svg}>
      <path d="M6 9V3h12v6" />
      <rect x="3" y="9" width="18" height="8" rx="2" />
      <path d="M6 14h12v7H6z" />
    </svg>
  );
}

export function EyeIcon() {
  return (
    <svg {...svg}>
      <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12z" />
      <circle cx="12" cy="12" r="3" />
    </svg>
  );
}
