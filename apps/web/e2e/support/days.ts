import type { APIRequestContext } from '@playwright/test';
import { apiHeaders } from './sign-in.ts';

/**
 * Opens the day of every demo terminal through the API (opening float 100), so the forced
 * "Start day" dialog stays closed in journeys that are not about it. Days already open are left as
 * they are.
 */
export async function startDays(request: APIRequestContext): Promise<void> {
  const headers = await apiHeaders(request);
  const { user } = await (await request.get('/api/auth/info', { headers })).json();
  for (const store of user.stores) {
    for (const terminal of store.terminals) {
      const res = await request.get(`/api/admin/closing/opened?store=${store.id}&terminal=${terminal.id}`, { headers });
      if (!res.ok()) continue;
      const { closing } = await res.json();
      if (closing && closing.openingBalance === null) {
        await request.post(`/api/admin/closing/${closing.id}`, {
          headers,
          data: { id: closing.id, openingBalance: 100, cashAdded: 0, cashWithdrawn: 0, updateOnly: true, terminal: terminal.id },
        });
      }
    }
  }
}
