import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface TabItem {
  id: string;
  label: ReactNode;
  content: ReactNode;
  disabled?: boolean;
}

export interface TabsProps {
  items: TabItem[];
  /** Active tab id (controlled). */
  value: string;
  onChange: (id: string) => void;
  /** Accessible name of the tab list. */
  label?: string;
  orientation?: 'horizontal' | 'vertical';
  className?: string;
}

/** WAI-ARIA tabs: arrow keys (mirrored in RTL), Home and End move between tabs; only the active panel renders. */
export function Tabs({ items, value, onChange, label, orientation = 'horizontal', className }: TabsProps) {
  const id = useId();
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});
  const enabled = items.filter((i) => !i.disabled);
  const active = items.find((i) => i.id === value) ?? enabled[0];

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const rtl = getComputedStyle(event.currentTarget).direction === 'rtl';
    const nextKeys = orientation === 'vertical' ? ['ArrowDown'] : [rtl ? 'ArrowLeft' : 'ArrowRight'];
    const prevKeys = orientation === 'vertical' ? ['ArrowUp'] : [rtl ? 'ArrowRight' : 'ArrowLeft'];
    const at = enabled.findIndex((i) => i.id === active?.id);
    let next: TabItem | undefined;
    if (nextKeys.includes(event.key)) next = enabled[(at + 1) % enabled.length];
    else if (prevKeys.includes(event.key)) next = enabled[(at - 1 + enabled.length) % enabled.length];
    else if (event.key === 'Home') next = enabled[0];
    else if (event.key === 'End') next = enabled[enabled.length - 1];
    if (!next) return;
    event.preventDefault();
    onChange(next.id);
    refs.current[next.id]?.focus();
  }

  return (
    <div className={['tabs', `tabs-${orientation}`, className].filter(Boolean).join(' ')}>
      <div role="tablist" aria-label={label} aria-orientation={orientation} className="tab-list" onKeyDown={onKeyDown}>
        {items.map((item) => {
          const selected = item.id === active?.id;
          return (
            <button
              key={item.id}
              ref={(node) => {
                refs.current[item.id] = node;
              }}
              type="button"
              role="tab"
              id={`${id}-tab-${item.id}`}
              aria-selected={selected}
              aria-controls={`${id}-panel-${item.id}`}
              tabIndex={selected ? 0 : -1}
              disabled={item.disabled}
              className="tab"
              onClick={() => onChange(item.id)}
            >
              {item.label}
            </button>
          );
        })}
      </div>
      {active && (
        <div role="tabpanel" id={`${id}-panel-${active.id}`} aria-labelledby={`${id}-tab-${active.id}`} className="tab-panel" tabIndex={0}>
          {active.content}
        </div>
      )}
    </div>
  );
}
