import type { ReactNode } from 'react';
import { LanguageSwitch } from './language-switch';

/** Centered card for the login and password screens. */
export function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <main className="auth-page">
      <div className="auth-card">
        {children}
        <div className="row" style={{ justifyContent: 'center', marginBlockStart: 'var(--space-6)' }}>
          <LanguageSwitch />
        </div>
      </div>
    </main>
  );
}
