import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { confirm } from '@/components/ui/confirm-dialog';
import { Dialog } from '@/components/ui/dialog';
import { toast } from '@/components/ui/toast';
import { apiDelete, apiPost } from '@/features/list-table/api/http';
import { errorText } from '@/lib/form-errors';

export interface AgentPrinter {
  id: number;
  name: string;
  deliveredBy?: 'server' | 'agent';
}

/** The one command a till's computer runs to relay this printer's jobs (apps/api/src/cli/print-agent.ts). */
export const agentCommand = (server: string, key: string) => `npm run print-agent -- --server ${server} --key ${key}`;

/**
 * A printer's print agent (issue 26): make a key (POST /devices/{id}/agent-key, shown once with the
 * command to run and a copy button; a new key replaces the old one) or withdraw it
 * (DELETE /devices/{id}/agent-key: the server sends to the printer itself again). Permission 'settings'.
 */
export function PrinterAgentKey({ printer }: { printer: AgentPrinter }) {
  const { t } = useTranslation('backoffice');
  const client = useQueryClient();
  const [key, setKey] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const agent = printer.deliveredBy === 'agent';
  const name = printer.name;

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
      await client.invalidateQueries({ queryKey: ['/devices'] });
    } catch (error) {
      toast.error(errorText(error));
    } finally {
      setBusy(false);
    }
  };
  const make = async () => {
    if (agent && !(await confirm(t('printers.replaceQ', { name }), { danger: true }))) return;
    await run(async () => setKey((await apiPost<{ key: string; device: number }>(`/devices/${printer.id}/agent-key`, {})).key));
  };
  const withdraw = async () => {
    if (!(await confirm(t('printers.withdrawQ', { name }), { danger: true }))) return;
    await run(async () => {
      await apiDelete(`/devices/${printer.id}/agent-key`);
      toast.success(t('printers.withdrawn', { name }));
    });
  };

  return (
    <div className="row-actions">
      <Button size="sm" variant="secondary" loading={busy} aria-label={t(agent ? 'printers.newKeyNamed' : 'printers.makeKeyNamed', { name })} onClick={() => void make()}>
        {t(agent ? 'printers.newKey' : 'printers.makeKey')}
      </Button>
      {agent && (
        <Button size="sm" variant="danger" disabled={busy} aria-label={t('printers.withdrawNamed', { name })} onClick={() => void withdraw()}>
          {t('printers.withdraw')}
        </Button>
      )}
      {key && <AgentKeyDialog name={name} agentKey={key} onClose={() => setKey(null)} />}
    </div>
  );
}

function AgentKeyDialog({ name, agentKey, onClose }: { name: string; agentKey: string; onClose: () => void }) {
  const { t } = useTranslation('backoffice');
  const command = agentCommand(window.location.origin, agentKey);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(command);
      toast.success(t('printers.copied'), { duration: 1000 });
    } catch {
      toast.error(t('printers.copyFailed'));
    }
  };
  return (
    <Dialog open onClose={onClose} title={t('printers.keyTitle', { name })} size="lg" footer={<Button onClick={onClose}>{t('printers.close')}</Button>}>
      <p>{t('printers.keyOnce')}</p>
      <p>
        {t('printers.command')}: <bdi dir="ltr"><code data-testid="agent-command">{command}</code></bdi>{' '}
        <Button size="sm" variant="secondary" onClick={() => void copy()}>{t('printers.copyCommand')}</Button>
      </p>
      <p>
        {t('printers.key')}: <bdi dir="ltr"><code>{agentKey}</code></bdi>
      </p>
    </Dialog>
  );
}
