import { useMemo, useState } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/toast';
import { useSession } from '@/lib/session';
import { ListTable } from '@/features/list-table/components/list-table';
import type { BarcodeRow } from '../lib/types.ts';

function CopyButton({ text }: { text: string }) {
  const { t } = useTranslation('backoffice');
  const [copied, setCopied] = useState(false);
  return (
    <Button
      size="sm"
      variant="ghost"
      aria-label={t('barcodes.copyNamed', { barcode: text })}
      title={t('barcodes.copy')}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text);
          setCopied(true);
          toast.success(t('barcodes.copied'), { duration: 1000 });
          setTimeout(() => setCopied(false), 1000);
        } catch {
          toast.error(t('barcodes.copyFailed'));
        }
      }}
    >
      {copied ? '✓' : '⧉'}
    </Button>
  );
}

/** Barcodes tab: Product, Variant, Barcode (copy to clipboard), Measurement (value plus unit). Read-only. */
export function BarcodesTab() {
  const { t } = useTranslation('backoffice');
  const { store } = useSession();
  const columns = useMemo<ColumnDef<BarcodeRow, any>[]>(
    () => [
      { id: 'item.name', accessorFn: (r) => r.item?.name ?? '', header: t('barcodes.product') },
      { id: 'variant.attributeValue', accessorFn: (r) => r.variant?.attributeValue ?? '', header: t('barcodes.variant') },
      {
        id: 'barcode',
        accessorKey: 'barcode',
        header: t('barcodes.barcode'),
        cell: ({ row }) => (
          <span className="nowrap">
            <code>{row.original.barcode}</code> <CopyButton text={row.original.barcode} />
          </span>
        ),
      },
      {
        id: 'measurement',
        accessorFn: (r) => [r.measurement, r.unit].filter(Boolean).join(' '),
        header: t('barcodes.measurement'),
      },
    ],
    [t],
  );
  return <ListTable<BarcodeRow> url="/barcodes" queryKey={['/barcodes']} params={{ store: store?.id }} columns={columns} />;
}
