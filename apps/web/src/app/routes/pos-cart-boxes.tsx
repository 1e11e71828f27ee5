import { updateCart, useCart } from '@/features/cart/cart-store';
import { CustomerNameBox } from '@/features/sale/components/customer-name-box';
import { SearchBar } from '@/features/sale/components/search-bar';

// Typing subscribes only these boxes to the cart's text fields, not the whole till.
type SearchBarSlots = Omit<React.ComponentProps<typeof SearchBar>, 'query' | 'quantity' | 'onQueryChange' | 'onQuantityChange'>;
export function CartSearchBar(props: SearchBarSlots) {
  const query = useCart((s) => s.q);
  const quantity = useCart((s) => s.quantity);
  return (
    <SearchBar
      {...props}
      query={query}
      quantity={quantity}
      onQueryChange={(q) => updateCart((s) => ({ ...s, q }))}
      onQuantityChange={(q) => updateCart((s) => ({ ...s, quantity: q }))}
    />
  );
}

export function CartCustomerNameBox({ required }: { required: boolean }) {
  const customerName = useCart((s) => s.customerName);
  return <CustomerNameBox value={customerName} required={required} onChange={(v) => updateCart((s) => ({ ...s, customerName: v }))} />;
}
