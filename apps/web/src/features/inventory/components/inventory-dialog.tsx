import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '@/components/ui/dialog';
import { Tabs } from '@/components/ui/tabs';
import { PurchasesTab } from './purchases-tab.tsx';
import { PurchaseOrdersTab } from './purchase-orders-tab.tsx';
import { SuppliersTab } from './suppliers-tab.tsx';

export interface InventoryDialogProps {
  open: boolean;
  onClose: () => void;
}

type InventoryTab = 'purchases' | 'purchaseOrders' | 'suppliers';

/** Inventory (full size): Purchases (default), Purchase Orders, Suppliers. */
export function InventoryDialog({ open, onClose }: InventoryDialogProps) {
  const { t } = useTranslation('backoffice');
  const [tab, setTab] = useState<InventoryTab>('purchases');
  const content = (id: InventoryTab) => (id === 'purchases' ? <PurchasesTab /> : id === 'purchaseOrders' ? <PurchaseOrdersTab /> : <SuppliersTab />);
  return (
    <Dialog open={open} onClose={onClose} title={t('inventory.title')} size="full">
      <Tabs
        label={t('inventory.title')}
        value={tab}
        onChange={(id) => setTab(id as InventoryTab)}
        items={(['purchases', 'purchaseOrders', 'suppliers'] as const).map((id) => ({ id, label: t(`inventory.tabs.${id}`), content: tab === id ? content(id) : null }))}
      />
    </Dialog>
  );
}
