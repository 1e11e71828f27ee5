import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { i18nReady } from '@/lib/i18n';
import '@/styles/index.css';
import '@/styles/ui.css';
import { AppProviders } from '@/app/providers';
import { FullScreenSpinner } from '@/components/ui/spinner';
import { AppRoutes } from '@/app/router';
import { registerServiceWorker } from '@/app/register-sw';
import { prefetchCatalogue } from '@/features/catalogue-cache/hooks/use-catalogue-loader';

// The till's warm start: its catalogue is read from the offline cache while the app starts.
if (window.location.pathname === '/pos') prefetchCatalogue();

// The offline till: the app shell is cached by a service worker (production builds only).
if (import.meta.env.PROD) registerServiceWorker();

// First render in the chosen language (a language other than English is its own chunk).
const render = () =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppProviders>
        <BrowserRouter>
          {/* A safety net: a screen waiting for its texts (lib/i18n.ts) never blanks the app. */}
          <Suspense fallback={<FullScreenSpinner />}>
            <AppRoutes />
          </Suspense>
        </BrowserRouter>
      </AppProviders>
    </StrictMode>,
  );
void i18nReady.then(render, render);
