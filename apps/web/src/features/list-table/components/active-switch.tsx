import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { confirm } from '@/components/ui/confirm-dialog';
import { toast } from '@/components/ui/toast';
import { Switch } from '@/components/ui/switch';
import { errorText } from '@/lib/form-errors';
import { apiPut } from '../api/http.ts';

export interface ActiveSwitchProps {
  /** PUT target, e.g. '/stores/3'. */
  path: string;
  active: boolean;
  /** Confirmation text for the change about to happen. */
  question: string;
  /** Accessible name of the switch. */
  label: string;
  /** Query key prefix to reload after the change. */
  invalidate: readonly unknown[];
}

/** Spec 4 activation toggle: confirm, PUT {isActive: !active} (a partial PUT), reload the list. */
export function ActiveSwitch({ path, active, question, label, invalidate }: ActiveSwitchProps) {
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  return (
    <Switch
      checked={active}
      aria-label={label}
      disabled={busy}
      onChange={async () => {
        if (!(await confirm(question))) return;
        setBusy(true);
        try {
          await apiPut(path, { isActive: !active });
          await client.invalidateQueries({ queryKey: invalidate });
        } catch (error) {
          toast.error(errorText(error));
        } finally {
          setBusy(false);
        }
      }}
    />
  );
}
