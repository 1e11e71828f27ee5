import { useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import '@/features/sale/pos.css';
import { useUnobscuredFocus } from '@/features/sale/use-unobscured-focus';

export interface PosScreenProps {
  /** Loading-sequence progress. */
  progress?: ReactNode;
  filters?: ReactNode;
  searchBar?: ReactNode;
  customerBox?: ReactNode;
  /** The held sales' control ("Held (n)"), beside the customer box. */
  held?: ReactNode;
  cartToolbar?: ReactNode;
  cart?: ReactNode;
  totals?: ReactNode;
  payment?: ReactNode;
  toolbar?: ReactNode;
  /** The product grid (touch mode or its toggle), beside or above the cart. */
  grid?: ReactNode;
  /** The button that shows or hides the grid. */
  gridToggle?: ReactNode;
  /** Replaces the sale area (payment mode shows the running orders). */
  main?: ReactNode;
  touch?: boolean;
  mode?: string;
}

/**
 * The till's layout (spec 2.5): filters, search and customer name on top; the cart with its
 * toolbar and totals in the main area; the payment panel on the right; the toolbar at the bottom.
 * The sale screen is exactly the window's height (issue 23.2): its parts scroll inside, so the
 * payment panel's tenders and Done are never below the fold nor under the toolbar (pos.css).
 * The route (app/routes/pos.tsx) fills the slots with the features.
 */
export function PosScreen({ progress, filters, searchBar, customerBox, held, cartToolbar, cart, totals, payment, toolbar, grid, gridToggle, main, touch, mode }: PosScreenProps) {
  const { t } = useTranslation('sale');
  const root = useRef<HTMLDivElement>(null);
  useUnobscuredFocus(root); // focus never under the sticky toolbar (issue 29.2)
  return (
    <div ref={root} className={['pos-screen', main ? null : 'pos-screen-sale', touch ? 'pos-touch' : null].filter(Boolean).join(' ')} data-mode={mode}>
      <h1 className="visually-hidden">{t('title')}</h1>
      {progress}
      {main ?? (
        <div className={grid ? 'pos-main pos-main-grid' : 'pos-main'}>
          {grid && <div className="pos-grid">{grid}</div>}
          <div className="pos-sale">
            {filters}
            <div className="row pos-search-row">{searchBar}</div>
            <div className="row pos-cart-row">
              {cartToolbar}
              <span className="grow" />
              {gridToggle}
              {held}
              {customerBox}
            </div>
            <div className="pos-cart">{cart}</div>
            {totals}
          </div>
          <aside className="pos-payment">{payment}</aside>
        </div>
      )}
      {toolbar}
    </div>
  );
}
