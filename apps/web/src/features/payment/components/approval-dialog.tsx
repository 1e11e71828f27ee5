import { useCallback, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { HttpError } from '@/lib/api-client';
import { errorText } from '@/lib/form-errors';
import { approvalNeeded, requestApproval, type ApprovalNeed } from '@/features/payment/approval';

interface Pending extends ApprovalNeed { storeId: number; resolve: (token: string | null) => void }

/**
 * "Ask a manager" (issue 21.2): `ask(need)` opens a dialog on this till where a manager types their
 * user name and PIN; it resolves with the single-use approval token, or null when cancelled.
 */
export function useApproval() {
  const [pending, setPending] = useState<Pending | null>(null);
  const ask = useCallback((need: ApprovalNeed, storeId: number) => new Promise<string | null>((resolve) => setPending({ ...need, storeId, resolve })), []);
  const close = (token: string | null) => {
    pending?.resolve(token);
    setPending(null);
  };
  const dialog = pending ? <ApprovalDialog need={pending} storeId={pending.storeId} onDone={close} /> : null;
  return { ask, dialog };
}

function ApprovalDialog({ need, storeId, onDone }: { need: ApprovalNeed; storeId: number; onDone: (token: string | null) => void }) {
  const { t } = useTranslation('sale');
  const [username, setUsername] = useState('');
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const first = useRef<HTMLInputElement>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await requestApproval({ permission: need.permission, username: username.trim(), pin, store: storeId, upTo: need.upTo });
      onDone(answer.approval);
    } catch (e) {
      setError(e instanceof HttpError && e.status === 422 ? e.violations.map((v) => v.message).join(', ') : e instanceof HttpError && e.status === 403 ? t('approval.refused') : errorText(e));
      setPin('');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open title={t('approval.title')} onClose={() => onDone(null)} size="sm" initialFocus={first}
      footer={(
        <>
          <Button variant="ghost" onClick={() => onDone(null)}>{t('approval.cancel')}</Button>
          <Button type="submit" form="approval-form" disabled={busy || !username.trim() || !pin}>{t('approval.approve')}</Button>
        </>
      )}>
      <form id="approval-form" onSubmit={submit} className="stack">
        <p>{need.message}</p>
        <p className="text-muted">{t('approval.explain')}</p>
        <Input ref={first} label={t('approval.manager')} autoComplete="off" value={username} onChange={(e) => setUsername(e.target.value)} />
        <Input label={t('approval.pin')} type="password" inputMode="numeric" autoComplete="off" maxLength={8} value={pin}
          onChange={(e) => setPin(e.target.value.replace(/\D/g, ''))} error={error} />
      </form>
    </Dialog>
  );
}

/**
 * Saves a sale; when the server refuses it for a permission a manager can grant, asks for the
 * approval on this till and sends the same sale once more with the token.
 */
export function useSaveWithApproval(storeId: number | null | undefined) {
  const { ask, dialog } = useApproval();
  const saveWithApproval = useCallback(async <B extends object, T>(body: B, save: (b: B) => Promise<T>): Promise<T> => {
    try {
      return await save(body);
    } catch (error) {
      const need = approvalNeeded(error);
      if (!need || storeId == null) throw error;
      const token = await ask(need, storeId);
      if (!token) throw error;
      return save({ ...body, approval: token });
    }
  }, [ask, storeId]);
  return { saveWithApproval, dialog };
}
