import type { ReactNode } from 'react';
import { LanguageSwitch } from './language-switch';

/** Centered card for the login and password screens. `brand`: a line above the form (the admin shell names itself). */
export function AuthLayout({ children, brand }: { children: ReactNode; brand?: ReactNode }) {
  return (
    <main className="auth-page">
      <div className="auth-card">
        {brand && <p className="auth-brand">{brand}</p>}
        {children}
        <div className="row" style={{ justifyContent: 'center', marginBlockStart: 'var(--space-6)' }}>
          <LanguageSwitch />
        </div>
      </div>
    </main>
  );
}
