import { useMemo } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ADDRESS_MESSAGE, HOST_NAME } from '@pos/domain/network';
import { Input } from '@/components/ui/input';
import { FormSelect } from '@/features/list-table/components/form-select';
import { CrudTab, type EntityFormProps } from './crud-tab.tsx';
import { CrudFormDialog, useCrudForm } from './crud-form.tsx';
import { PrinterAgentKey } from './printer-agent-key.tsx';

/** A network receipt printer as /api/devices returns it (issue 26). */
export interface PrinterRow {
  id: number;
  '@id'?: string;
  name: string;
  ipAddress: string;
  port: number;
  prints?: number;
  paperWidth?: number;
  deliveredBy?: 'server' | 'agent';
  isActive: boolean;
}

const FIELDS = ['name', 'ipAddress', 'port', 'prints', 'paperWidth'];
/** A host name, or what an IPv4/IPv6 address is made of (the server checks the address itself). */
const isAddress = (v: string) => HOST_NAME.test(v) || /^[0-9a-f:.]+$/i.test(v);
const printerSchema = z.object({
  name: z.string().trim().min(1, 'This value should not be blank.'),
  ipAddress: z.string().trim().refine(isAddress, ADDRESS_MESSAGE),
  port: z.string().trim().regex(/^\d{1,5}$/, 'A port from 1 to 65535.').refine((v) => Number(v) >= 1 && Number(v) <= 65535, 'A port from 1 to 65535.'),
  prints: z.string().trim().regex(/^\d{1,3}$/, 'From 1 to 100 copies.').refine((v) => Number(v) >= 1 && Number(v) <= 100, 'From 1 to 100 copies.'),
  paperWidth: z.enum(['80', '58']),
});
type PrinterForm = z.infer<typeof printerSchema>;

function PrinterFormDialog({ open, onClose, entity }: EntityFormProps<PrinterRow>) {
  const { t } = useTranslation('backoffice');
  const { register, handleSubmit, formState, control, submit, saving } = useCrudForm<PrinterForm>({
    schema: printerSchema, path: '/devices', fields: FIELDS, entity, onClose, invalidate: [['/devices']],
    defaults: {
      name: entity?.name ?? '',
      ipAddress: entity?.ipAddress ?? '',
      port: String(entity?.port ?? 9100),
      prints: String(entity?.prints ?? 1),
      paperWidth: entity?.paperWidth === 58 ? '58' : '80',
    },
  });
  const e = formState.errors;
  return (
    <CrudFormDialog
      open={open}
      onClose={onClose}
      texts="printers" editing={!!entity}
      saving={saving}
      onSubmit={handleSubmit((v) => submit({ name: v.name.trim(), ipAddress: v.ipAddress.trim(), port: Number(v.port), prints: Number(v.prints), paperWidth: Number(v.paperWidth) }))}
    >
      <Input label={t('common.name')} required autoFocus error={e.name?.message} {...register('name')} />
      <Input label={t('printers.address')} hint={t('printers.addressHint')} required error={e.ipAddress?.message} {...register('ipAddress')} />
      <Input label={t('printers.port')} inputMode="numeric" required error={e.port?.message} {...register('port')} />
      <Input label={t('printers.copies')} inputMode="numeric" required error={e.prints?.message} {...register('prints')} />
      <FormSelect control={control} name="paperWidth" label={t('printers.paper')} options={[{ value: '80', label: '80 mm' }, { value: '58', label: '58 mm' }]} />
    </CrudFormDialog>
  );
}

/** Settings > Printers: the shop's network receipt printers (ESC/POS, port 9100); each till picks its own in General; a printer the server cannot reach gets a print agent key. */
export function PrintersTab() {
  const { t } = useTranslation('backoffice');
  const columns = useMemo<ColumnDef<PrinterRow, any>[]>(
    () => [
      { id: 'name', accessorKey: 'name', header: t('common.name') },
      { id: 'ipAddress', accessorFn: (r) => `${r.ipAddress}:${r.port}`, header: t('printers.address') },
      { id: 'paperWidth', accessorFn: (r) => `${r.paperWidth ?? 80} mm`, header: t('printers.paper'), enableColumnFilter: false },
      { id: 'deliveredBy', accessorFn: (r) => t(r.deliveredBy === 'agent' ? 'printers.viaAgent' : 'printers.direct'), header: t('printers.delivery'), enableSorting: false, enableColumnFilter: false },
      // Issue 26: a key for the print agent a till's computer runs when this server cannot reach the printer.
      { id: 'agent', header: t('printers.agent'), enableSorting: false, enableColumnFilter: false, cell: ({ row }) => <PrinterAgentKey printer={row.original} /> },
    ],
    [t],
  );
  return (
    <CrudTab<PrinterRow>
      url="/devices"
      columns={columns}
      addLabel={t('printers.add')}
      rowLabel={(r) => r.name}
      toggle={{ question: (r) => t(r.isActive ? 'printers.deactivateQ' : 'printers.activateQ') }}
      Form={PrinterFormDialog}
    />
  );
}
