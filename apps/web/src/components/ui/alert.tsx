import type { ReactNode } from 'react';

export interface AlertProps {
  variant?: 'error' | 'success' | 'info' | 'warning';
  children: ReactNode;
  className?: string;
}

/** Inline banner above a form: errors are announced (role="alert"), the rest politely (role="status"). */
export function Alert({ variant = 'error', children, className }: AlertProps) {
  return (
    <div role={variant === 'error' ? 'alert' : 'status'} className={['alert', `alert-${variant}`, className].filter(Boolean).join(' ')}>
      {children}
    </div>
  );
}
