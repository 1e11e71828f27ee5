import { useImperativeHandle, useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { confirm } from '@/components/ui/confirm-dialog';
import { toast } from '@/components/ui/toast';
import { duplicateTargets, removeTargets, setTargetsDiscount, setTargetsQuantity, targetIndexes, toggleTargetsTax } from '@/features/cart/cart-logic';
import { cartStore, tryUpdateCart, updateCart, useCart } from '@/features/cart/cart-store';
import { LineDiscountDialog } from './line-discount-dialog';
import { QuantityDialog } from './quantity-dialog';
import { removeQuestion } from './line-text';

export type CartToolbarDialog = 'quantity' | 'discount';
/** What the till's shortcuts ask of the toolbar (F2 quantity, F4 line discount). */
export interface CartToolbarHandle { open(dialog: CartToolbarDialog): void }

/**
 * The cart toolbar: remove, duplicate, quantity, discount and tax toggle, acting on the checked
 * lines or the last line; disabled while the cart is empty.
 */
export function CartToolbar({ ref, displayShortcuts }: { ref?: Ref<CartToolbarHandle>; displayShortcuts?: boolean }) {
  const { t } = useTranslation('sale');
  const empty = useCart((s) => s.added.length === 0);
  const [dialog, setDialog] = useState<CartToolbarDialog | null>(null);
  useImperativeHandle(ref, () => ({ open: (d) => { if (cartStore.get().added.length > 0) setDialog(d); } }), []);

  const remove = async () => {
    const s = cartStore.get();
    if (await confirm(removeQuestion(t, targetIndexes(s).map((i) => s.added[i])), { danger: true })) updateCart(removeTargets);
  };

  return (
    <div className="cart-toolbar row" role="toolbar" aria-label={t('cart.toolbar')}>
      <Button variant="danger" size="sm" disabled={empty} onClick={() => void remove()}>{t('cart.remove')}</Button>
      <Button variant="secondary" size="sm" disabled={empty} onClick={() => updateCart(duplicateTargets)}>{t('cart.duplicate')}</Button>
      <Button variant="secondary" size="sm" disabled={empty} onClick={() => setDialog('quantity')}>{t('cart.qty')}{displayShortcuts && <kbd className="shortcut-hint">f2</kbd>}</Button>
      <Button variant="secondary" size="sm" disabled={empty} onClick={() => setDialog('discount')}>{t('cart.disc')}{displayShortcuts && <kbd className="shortcut-hint">f4</kbd>}</Button>
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
