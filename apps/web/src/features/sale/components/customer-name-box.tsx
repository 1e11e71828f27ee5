import { Suspense, lazy, useEffect, useId, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { ComboListbox, comboboxProps, moveHighlight } from '@/components/ui/combobox';
import { Input } from '@/components/ui/input';
import type { Customer } from '@/features/catalogue-cache/types';
import { getCustomers } from '@/features/customers/api/customers';
import { useOpened } from '@/lib/use-opened';

// Its form library and zod stay out of the till's first download (issue 24): loaded on first use.
const QuickCustomerDialog = lazy(() => import('@/features/customers/components/quick-customer-dialog').then((m) => ({ default: m.QuickCustomerDialog })));

/** The pause in typing before the customers are asked for. */
export const CUSTOMER_LOOKUP_DELAY_MS = 250;
const LOOKUP_LIMIT = 8;

export interface CustomerNameBoxProps {
  value: string;
  onChange: (v: string) => void;
  required: boolean;
  /** Attach a customer found (or created) to the sale; without it the box is free text only. */
  onAttach?: (c: Customer) => void;
}

/**
 * The customer name (optional, or required by the "Require customer name" setting). As you type it
 * also finds customers by name, phone or customer number (GET /api/customers?q, after a pause) in
 * a combobox list: arrows + Enter or a tap attach one to the sale; when none matches, "Create"
 * opens a small form (name, phone) whose customer is attached at once. Free text stays a name.
 */
export function CustomerNameBox({ value, onChange, required, onAttach }: CustomerNameBoxProps) {
  const { t } = useTranslation('sale');
  const listId = useId();
  const [q, setQ] = useState('');
  const [active, setActive] = useState(-1);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const createOpened = useOpened(creating);
  const text = value.trim();

  useEffect(() => {
    if (!onAttach || text.length < 2) {
      setQ('');
      return;
    }
    const timer = setTimeout(() => setQ(text), CUSTOMER_LOOKUP_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, onAttach]);

  const found = useQuery({
    queryKey: ['customers', 'lookup', q],
    queryFn: ({ signal }) => getCustomers({ page: 1, itemsPerPage: LOOKUP_LIMIT, q }, signal),
    enabled: q !== '',
    staleTime: 30_000,
  });
  const matches = q && q === text && found.isSuccess ? found.data['hydra:member'] : [];
  const answered = q !== '' && q === text && found.isSuccess;
  const open = answered && dismissed !== value;
  const highlighted = open && active < matches.length ? active : -1;

  const attach = (c: Customer) => {
    setActive(-1);
    setDismissed(c.name);
    onChange(c.name);
    onAttach?.(c);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Escape' && open) {
      e.preventDefault();
      e.stopPropagation();
      setDismissed(value);
      return;
    }
    if (e.key === 'Enter' && highlighted >= 0) {
      e.preventDefault();
      attach(matches[highlighted]);
      return;
    }
    const next = open ? moveHighlight(e, highlighted, matches.length) : null;
    if (next !== null) {
      e.preventDefault();
      setActive(next);
    }
  };

  // Digits typed are a phone number, anything else a name.
  const initial = /^[+\d\s-]+$/.test(text) ? { name: '', phone: text } : { name: text, phone: '' };

  return (
    <div className="customer-combo customer-name-box">
      <Input
        label={t('customerName.label')}
        placeholder={t(onAttach ? 'customerLookup.placeholder' : 'customerName.placeholder')}
        value={value}
        required={required}
        maxLength={255}
        autoComplete="off"
        {...(onAttach ? comboboxProps(listId, open, highlighted) : {})}
        onChange={(e) => {
          setActive(-1);
          setDismissed(null);
          onChange(e.target.value);
        }}
        onKeyDown={onAttach ? onKeyDown : undefined}
        onBlur={() => setDismissed(value)}
        onFocus={() => setDismissed(null)}
        data-testid="customer-box"
      />
      {onAttach && (
        <ComboListbox
          id={listId}
          label={t('customerLookup.matches')}
          open={open}
          active={highlighted}
          onPick={(i) => attach(matches[i])}
          options={matches.map((c) => ({
            key: c.id,
            content: <><bdi className="combo-name">{c.name}</bdi><span className="text-muted" dir="ltr">{c.phone}</span><span className="text-muted">#{c.id}</span></>,
          }))}
          footer={matches.length === 0 ? (
            <div className="combo-footer row">
              <span className="text-muted grow">{t('customerLookup.none')}</span>
              <button type="button" className="btn btn-secondary btn-sm" onMouseDown={(e) => e.preventDefault()} onClick={() => setCreating(true)}>
                {t('customerLookup.create')}
              </button>
            </div>
          ) : null}
        />
      )}
      {onAttach && createOpened && (
        <Suspense fallback={null}>
          <QuickCustomerDialog
            open={creating}
            initial={initial}
            onClose={() => setCreating(false)}
            onCreated={(c) => {
              setCreating(false);
              attach(c);
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
