import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Switch } from '@/components/ui/switch';

export interface HelpShortcut {
  keys: string;
  /** i18n key in the 'sale' namespace. */
  label: string;
}

export interface HelpModalProps {
  open: boolean;
  onClose: () => void;
  shortcuts: readonly HelpShortcut[];
  enableShortcuts: boolean;
  displayShortcuts: boolean;
  onChange: (patch: { enableShortcuts?: boolean; displayShortcuts?: boolean }) => void;
}

/** Help (?): Enable shortcuts, Display shortcut texts, a search box and the list of shortcuts. */
export function HelpModal({ open, onClose, shortcuts, enableShortcuts, displayShortcuts, onChange }: HelpModalProps) {
  const { t } = useTranslation('sale');
  const [q, setQ] = useState('');
  const list = useMemo(() => {
    const needle = q.trim().toLowerCase();
    return shortcuts
      .map((s) => ({ ...s, text: t(s.label) }))
      .filter((s) => !needle || s.text.toLowerCase().includes(needle) || s.keys.toLowerCase().includes(needle));
  }, [shortcuts, q, t]);
  return (
    <Dialog open={open} onClose={onClose} title={t('help.title')} size="md">
      <div className="stack">
        <Switch checked={enableShortcuts} onChange={(v) => onChange({ enableShortcuts: v })} label={t('help.enableShortcuts')} />
        <Switch checked={displayShortcuts} onChange={(v) => onChange({ displayShortcuts: v })} label={t('help.displayShortcuts')} />
        <Input label={t('help.search')} type="search" value={q} onChange={(e) => setQ(e.target.value)} data-autofocus />
        <table className="data-table help-shortcuts">
          <thead><tr><th>{t('help.keys')}</th><th>{t('help.action')}</th></tr></thead>
          <tbody>
            {list.map((s) => (
              <tr key={s.keys}><td><kbd>{s.keys}</kbd></td><td>{s.text}</td></tr>
            ))}
            {!list.length && <tr><td colSpan={2} className="text-muted">{t('help.none')}</td></tr>}
          </tbody>
        </table>
      </div>
    </Dialog>
  );
}
