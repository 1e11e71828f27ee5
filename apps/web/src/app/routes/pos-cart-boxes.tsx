import { useCallback } from 'react';
import { useMoney } from '@/lib/money';
import type { Product } from '@/features/catalogue-cache/types';
import { useCatalogue } from '@/features/catalogue-cache/catalogue-store';
import { setCustomer } from '@/features/cart/cart-logic';
import { updateCart, useCart } from '@/features/cart/cart-store';
import { pricesOf } from '@/features/item-search/prices';
import { CustomerNameBox } from '@/features/sale/components/customer-name-box';
import { SearchBar } from '@/features/sale/components/search-bar';
import { useScanSuggestions, type ScanSuggestSource } from '@/features/sale/hooks/use-scan-suggestions';

const setQuery = (q: string) => updateCart((s) => ({ ...s, q }));
const setQuantity = (quantity: string) => updateCart((s) => ({ ...s, quantity }));

// Typing subscribes only these boxes to the cart's text fields, not the whole till.
type SearchBarSlots = Omit<React.ComponentProps<typeof SearchBar>, 'query' | 'quantity' | 'onQueryChange' | 'onQuantityChange' | 'suggestions' | 'suggestFor' | 'onSuggest' | 'isExact' | 'renderSuggestion'>;
export function CartSearchBar({ suggest, ...props }: SearchBarSlots & { suggest: ScanSuggestSource }) {
  const query = useCart((s) => s.q);
  const quantity = useCart((s) => s.quantity);
  const scanLookup = useCatalogue((s) => s.scan);
  const currency = useMoney();
  const { suggestions, suggestFor, onSuggest } = useScanSuggestions(suggest);
  const isExact = useCallback((code: string) => scanLookup.get(code.trim()) !== undefined, [scanLookup]);
  const row = (p: Product) => (
    <>
      <bdi className="combo-name">{p.name}</bdi>
      <span className="text-muted combo-code">{p.barcode}</span>
      <span className="num">{currency.formatMinor(pricesOf(p, { digits: currency.digits, timeZone: currency.timeZone }).effective)}</span>
    </>
  );
  return (
    <SearchBar
      {...props}
      query={query}
      quantity={quantity}
      onQueryChange={setQuery}
      onQuantityChange={setQuantity}
      suggestions={suggestions}
      suggestFor={suggestFor}
      onSuggest={onSuggest}
      isExact={isExact}
      renderSuggestion={row}
    />
  );
}

export function CartCustomerNameBox({ required }: { required: boolean }) {
  const customerName = useCart((s) => s.customerName);
  return (
    <CustomerNameBox
      value={customerName}
      required={required}
      onChange={(v) => updateCart((s) => ({ ...s, customerName: v }))}
      onAttach={(c) => updateCart((s) => setCustomer(s, c))}
    />
  );
}
