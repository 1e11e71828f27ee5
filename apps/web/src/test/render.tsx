import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { AppProviders } from '@/app/providers';
import '@/lib/i18n';

export function createTestQueryClient() {
  return new QueryClient({ defaultOptions: { queries: { retry: false, gcTime: Infinity }, mutations: { retry: false } } });
}

/**
 * Renders `ui` at `route` inside the app providers (fresh QueryClient, i18n in English, toasts,
 * confirm) and a memory router. Pass `routes` to render a route table instead of one element.
 */
export function renderWithProviders(ui: ReactElement | null, options: { route?: string; path?: string; routes?: RouteObject[] } = {}) {
  const { route = '/', path = '*' } = options;
  const router = createMemoryRouter(options.routes ?? [{ path, element: ui }], { initialEntries: [route] });
  const queryClient = createTestQueryClient();
  const result = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...result, router, queryClient };
}

/** A fetch Response with a JSON body. */
export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** Delete every cookie of the test document. */
export function clearCookies() {
  for (const c of document.cookie.split(';')) {
    const name = c.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
}
