import { useTranslation } from 'react-i18next';
import { useFieldArray, useWatch, type Control, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import { useMoney } from '@/lib/money';
import { quantityToString } from '@pos/domain/money';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { NumberInput } from '@/components/ui/number-input';
import { MoneyInput } from '@/components/ui/money-input';
import { lineTotals, rowTotal, type Line } from '../lib/lines.ts';

export interface WithItems {
  items: Line[];
}

export interface LineGridProps {
  /** The form's control and register, seen through its `items` (cast with asLineForm). */
  control: Control<WithItems>;
  register: UseFormRegister<WithItems>;
  errors: FieldErrors<WithItems>;
  /** Purchases against a PO show "Quantity requested". */
  showRequested?: boolean;
  /** Labels of the cost column: "Unit Cost" (PO) or "Purchase price". */
  costLabel: string;
}

/** Lets a purchase or PO form hand its control/register to the grid. */
export const asLineForm = <C, R>(control: C, register: R) => ({
  control: control as unknown as Control<WithItems>,
  register: register as unknown as UseFormRegister<WithItems>,
});

/** Item, (Quantity requested), Quantity, Unit Cost, Total Cost, Comments, Remove; variants nested; totals row. */
export function LineGrid({ control, register, errors, showRequested = false, costLabel }: LineGridProps) {
  const currency = useMoney();
  const { t } = useTranslation('backoffice');
  const { fields, remove } = useFieldArray({ control, name: 'items' });
  const lines = (useWatch({ control, name: 'items' }) as Line[] | undefined) ?? [];
  const totals = lineTotals(lines, currency.digits);
  const cur = (minor: number) => currency.formatMinor(minor);
  const cols = showRequested ? 7 : 6;
  return (
    <div className="line-grid">
      <table className="table table-compact">
        <thead>
          <tr>
            <th scope="col">{t('inventory.item')}</th>
            {showRequested && <th scope="col">{t('inventory.quantityRequested')}</th>}
            <th scope="col">{t('inventory.quantity')}</th>
            <th scope="col">{costLabel}</th>
            <th scope="col">{t('inventory.totalCost')}</th>
            <th scope="col">{t('inventory.comments')}</th>
            <th scope="col">{t('inventory.remove')}</th>
          </tr>
        </thead>
        <tbody>
          {fields.map((f, i) => {
            const line = lines[i];
            const e = errors.items?.[i];
            return [
              <tr key={f.id}>
                <th scope="row">{line?.name}</th>
                {showRequested && <td>{line?.quantityRequested}</td>}
                <td>
                  <NumberInput aria-label={t('inventory.quantityOf', { name: line?.name })} error={e?.quantity?.message} {...register(`items.${i}.quantity`)} />
                </td>
                <td>
                  <MoneyInput aria-label={t('inventory.costOf', { name: line?.name })} error={e?.purchasePrice?.message} {...register(`items.${i}.purchasePrice`)} />
                </td>
                <td className="num">{cur(rowTotal(line?.quantity ?? '', line?.purchasePrice ?? '', currency.digits))}</td>
                <td>
                  <Input aria-label={t('inventory.commentsOf', { name: line?.name })} {...register(`items.${i}.comments`)} />
                </td>
                <td>
                  <Button size="sm" variant="ghost" aria-label={t('inventory.removeNamed', { name: line?.name })} onClick={() => remove(i)}>
                    ×
                  </Button>
                </td>
              </tr>,
              line?.variants?.length ? (
                <tr key={`${f.id}-variants`} className="line-grid__variants">
                  <td colSpan={cols}>
                    <table className="table table-nested" aria-label={t('inventory.variantsOf', { name: line.name })}>
                      <thead>
                        <tr>
                          <th scope="col">{t('inventory.variant')}</th>
                          {showRequested && <th scope="col">{t('inventory.quantityRequested')}</th>}
                          <th scope="col">{t('inventory.quantity')}</th>
                          <th scope="col">{costLabel}</th>
                          <th scope="col">{t('inventory.totalCost')}</th>
                        </tr>
                      </thead>
                      <tbody>
                        {line.variants.map((v, j) => {
                          const ve = e?.variants?.[j];
                          const name = `${line.name} ${v.label}`;
                          return (
                            <tr key={v.variant || j}>
                              <th scope="row">{v.label}</th>
                              {showRequested && <td>{v.quantityRequested}</td>}
                              <td>
                                <NumberInput aria-label={t('inventory.quantityOf', { name })} error={ve?.quantity?.message} {...register(`items.${i}.variants.${j}.quantity`)} />
                              </td>
                              <td>
                                <MoneyInput aria-label={t('inventory.costOf', { name })} error={ve?.purchasePrice?.message} {...register(`items.${i}.variants.${j}.purchasePrice`)} />
                              </td>
                              <td className="num">{cur(rowTotal(v.quantity, v.purchasePrice, currency.digits))}</td>
                            </tr>
                          );
                        })}
                      </tbody>
                    </table>
                  </td>
                </tr>
              ) : null,
            ];
          })}
        </tbody>
        <tfoot>
          <tr className="totals-row">
            <th scope="row">{t('inventory.linesCount', { count: totals.count })}</th>
            {showRequested && <td>{quantityToString(totals.requested)}</td>}
            <td data-testid="total-quantity">{quantityToString(totals.quantity)}</td>
            <td />
            <td className="num" data-testid="total-cost">
              {cur(totals.cost)}
            </td>
            <td colSpan={2} />
          </tr>
        </tfoot>
      </table>
      {(errors.items?.root?.message ?? errors.items?.message) && (
        <p className="field-error" role="alert">
          {errors.items?.root?.message ?? errors.items?.message}
        </p>
      )}
    </div>
  );
}
