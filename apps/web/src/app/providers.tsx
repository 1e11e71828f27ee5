import { useEffect, useState, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { ConfirmHost } from '@/components/ui/confirm-dialog';
import { Toaster } from '@/components/ui/toast';
import { HttpError } from '@/lib/api-client';
import i18n from '@/lib/i18n';
import { getSession, subscribeSession } from '@/lib/session';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false, // the reference client never refetches on focus (ref. client 2.0)
        staleTime: 30_000,
        // A 4xx will not change by asking again; a 5xx or a dropped connection might.
        retry: (failures, error) => !(error instanceof HttpError && error.status < 500) && failures < 2,
      },
      mutations: { retry: false },
    },
  });
}

/** Everything the app (and a component test) needs around the router. */
export function AppProviders({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());

  // Cached server data belongs to the signed-in user: forget it when the session ends (logout, 401).
  useEffect(
    () =>
      subscribeSession(() => {
        if (!getSession().user) client.clear();
      }),
    [client],
  );

  return (
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}>
        {children}
        <Toaster />
        <ConfirmHost />
      </I18nextProvider>
    </QueryClientProvider>
  );
}
