import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import '@/features/sale/pos.css';

export interface PosScreenProps {
  /** Loading-sequence progress. */
  progress?: ReactNode;
  filters?: ReactNode;
  searchBar?: ReactNode;
  customerBox?: ReactNode;
  cartToolbar?: ReactNode;
  cart?: ReactNode;
  totals?: ReactNode;
  payment?: ReactNode;
  toolbar?: ReactNode;
  /** Replaces the sale area (payment mode shows the running orders). */
  main?: ReactNode;
  touch?: boolean;
  mode?: string;
}

/**
 * The till's layout (spec 2.5): filters, search and customer name on top; the cart with its
 * toolbar and totals in the main area; the payment panel on the right; the toolbar at the bottom.
 * The route (app/routes/pos.tsx) fills the slots with the features.
 */
export function PosScreen({ progress, filters, searchBar, customerBox, cartToolbar, cart, totals, payment, toolbar, main, touch, mode }: PosScreenProps) {
  const { t } = useTranslation('sale');
  return (
    <div className={['pos-screen', touch ? 'pos-touch' : null].filter(Boolean).join(' ')} data-mode={mode}>
      <h1 className="visually-hidden">{t('title')}</h1>
      {progress}
      {main ?? (
        <div className="pos-main">
          <div className="pos-sale">
            {filters}
            <div className="row pos-search-row">{searchBar}</div>
            <div className="row pos-cart-row">
              {cartToolbar}
              <span className="grow" />
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
