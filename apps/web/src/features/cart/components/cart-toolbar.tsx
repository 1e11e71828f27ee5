import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { confirm } from '@/components/ui/confirm-dialog';
import { toast } from '@/components/ui/toast';
import { duplicateTargets, removeTargets, setTargetsDiscount, setTargetsQuantity, targetIndexes, toggleTargetsTax } from '@/features/cart/cart-logic';
import { cartStore, tryUpdateCart, updateCart, useCart } from '@/features/cart/cart-store';
import { LineDiscountDialog } from './line-discount-dialog';
import { QuantityDialog } from './quantity-dialog';
import { lineName } from './cart-table';

/**
 * The cart toolbar: remove, duplicate, quantity, discount and tax toggle, acting on the checked
 * lines or the last line; disabled while the cart is empty.
 */
export function CartToolbar() {
  const { t } = useTranslation('sale');
  const empty = useCart((s) => s.added.length === 0);
  const [dialog, setDialog] = useState<'quantity' | 'discount' | null>(null);

  const remove = async () => {
    const s = cartStore.get();
    const names = targetIndexes(s).map((i) => lineName(s.added[i])).join(', ');
    if (await confirm(t('cart.removeItem', { item: names }), { danger: true })) updateCart(removeTargets);
  };

  return (
    <div className="cart-toolbar row" role="toolbar" aria-label={t('cart.toolbar')}>
      <Button variant="danger" size="sm" disabled={empty} onClick={() => void remove()}>{t('cart.remove')}</Button>
      <Button variant="secondary" size="sm" disabled={empty} onClick={() => updateCart(duplicateTargets)}>{t('cart.duplicate')}</Button>
      <Button variant="secondary" size="sm" disabled={empty} onClick={() => setDialog('quantity')}>{t('cart.qty')}</Button>
      <Button variant="secondary" size="sm" disabled={empty} onClick={() => setDialog('discount')}>{t('cart.disc')}</Button>
      <Button variant="secondary" size="sm" disabled={empty} onClick={() => updateCart(toggleTargetsTax)}>{t('cart.toggleTax')}</Button>
      <QuantityDialog
        open={dialog === 'quantity'}
        onClose={() => setDialog(null)}
        onApply={(qty) => {
          const error = tryUpdateCart((s) => setTargetsQuantity(s, qty));
          if (error) {
            toast.error(t('messages.quantityBelowOne'));
            return t('messages.quantityBelowOne');
          }
        }}
      />
      <LineDiscountDialog open={dialog === 'discount'} onClose={() => setDialog(null)} onApply={(type, value, exact) => updateCart((s) => setTargetsDiscount(s, type, value, exact))} />
    </div>
  );
}
