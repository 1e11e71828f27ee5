import type { TFunction } from 'i18next';
import type { CartLine } from '@/features/cart/cart-types';

/** A line's name as the cashier reads it: the item, with its variant's value. */
export const lineName = (line: CartLine): string =>
  line.variant?.attributeValue ? `${line.item.name} (${line.variant.attributeValue})` : line.item.name;

/**
 * The question asked before removing cart lines (issue 23.3: nothing lost by one tap): it names the
 * lines, and says so when one of them carries a discount the cashier typed or chose.
 */
export function removeQuestion(t: TFunction<'sale'>, lines: readonly CartLine[]): string {
  const item = lines.map(lineName).join(', ');
  return lines.some((l) => l.discount !== 0 || !!l.discountRate) ? t('sale:cart.removeDiscounted', { item }) : t('sale:cart.removeItem', { item });
}
