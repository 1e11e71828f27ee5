import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '@/components/ui/toast';
import { errorText } from '@/lib/form-errors';
import { getMoney } from '@/lib/money';
import type { Product } from '@/features/catalogue-cache/types';
import { useCatalogue } from '@/features/catalogue-cache/catalogue-store';
import { isVisibleAt, matchesFacets, type FacetSelection } from '@/features/catalogue-cache/product-index';
import { addToCart, parseQuantityInput } from '@/features/cart/cart-logic';
import { cartStore, tryUpdateCart, updateCart } from '@/features/cart/cart-store';
import { findBarcode } from '@/features/sale/api/find-barcode';
import { resolveLocalScan, resolveScan, scaleRuleFor, type FoundOutcome } from '@/features/sale/scan';

/**
 * The till's scan (pos.tsx): a code typed or scanned into the search box becomes a cart line. A
 * barcode of the cached catalogue is added at once (no busy state); otherwise the server is asked
 * (weighed-item and unknown barcodes), with `scanning` true meanwhile. An item with variants opens
 * the chooser instead.
 */
export function usePosScan({ storeId, terminalId, facetSel, focusSearch, onChooseVariant }: {
  storeId: number | null;
  terminalId: number | null;
  facetSel: FacetSelection;
  focusSearch: () => void;
  onChooseVariant: (choice: { product: Product; qtyMilli: number }) => void;
}) {
  const { t } = useTranslation('sale');
  const settings = useCatalogue((s) => s.catalogue.settings);
  const byId = useCatalogue((s) => s.byId);
  const scanLookup = useCatalogue((s) => s.scan);
  const [scanning, setScanning] = useState(false);

    /** What a scan outcome does to the cart; the search box is emptied in the same cart update (one render). */
    const applyScan = (outcome: FoundOutcome) => {
      if (outcome.kind === 'choose-variant') {
        onChooseVariant({ product: outcome.product, qtyMilli: outcome.qtyMilli });
        updateCart((s) => ({ ...s, q: '', quantity: '1' }));
        return;
      }
      const error = tryUpdateCart((s) => {
        const r = addToCart(s, { product: outcome.product, variant: outcome.variant, qtyMilli: outcome.qtyMilli, priceCents: outcome.priceCents, priceExact: outcome.priceExact, timeZone: getMoney().timeZone });
        return r.error ? r : { ...r, state: { ...r.state, q: '', quantity: '1' } };
      });
      if (error) {
        toast.error(t('messages.quantityBelowOne'));
        updateCart((s) => ({ ...s, q: '', quantity: '1' }));
      }
    };

    const scan = async (code: string) => {
      const qtyMilli = parseQuantityInput(cartStore.get().quantity);
      if (qtyMilli === null) {
        toast.error(t('messages.quantityBelowOne'));
        return;
      }
      // Just after a warm start the product texts are still coming: this code's product is read
      // from the offline cache now (one chunk), never answered "not found" meanwhile.
      if (byId.textsPending) await byId.ensureScan(code);
      const visible = (p: Product) => isVisibleAt(p, storeId, terminalId) && matchesFacets(p, facetSel);
      // The usual case, a barcode of the cached catalogue: added right here, no busy state, no re-render of the till.
      const local = resolveLocalScan({ code, qtyMilli, lookup: scanLookup, visible });
      if (local) {
        applyScan(local);
        return;
      }
      setScanning(true);
      try {
        const outcome = await resolveScan({
          code, qtyMilli, lookup: scanLookup, byId, visible, findBarcode: (c) => findBarcode(c),
          scaleRule: scaleRuleFor(settings, storeId), currency: getMoney().currency,
        });
        if (outcome.kind === 'not-found' || outcome.kind === 'misread') {
          toast.error(t(outcome.kind === 'misread' ? 'messages.codeMisread' : 'messages.codeNotFound', { code: outcome.code }), { placement: 'top', duration: outcome.kind === 'misread' ? 3000 : 1000 });
          return;
        }
        applyScan(outcome);
      } catch (error) {
        toast.error(errorText(error));
      } finally {
        setScanning(false);
        focusSearch();
      }
    };

  /** A match picked from the scan box's list: added with the quantity box, as a scan of it would. */
  const pick = (product: Product) => {
    const qtyMilli = parseQuantityInput(cartStore.get().quantity);
    if (qtyMilli === null) {
      toast.error(t('messages.quantityBelowOne'));
      return;
    }
    applyScan(product.variants?.length ? { kind: 'choose-variant', product, qtyMilli } : { kind: 'add', product, variant: null, qtyMilli, priceCents: null });
    focusSearch();
  };

  return { scan, scanning, pick };
}
