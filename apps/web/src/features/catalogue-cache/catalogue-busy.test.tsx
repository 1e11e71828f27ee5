import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SYNC_FORMAT, type SyncPayload } from '@pos/domain/catalogue-sync';
import { renderWithProviders } from '@/test/render';
import { fakeApi, hydra, signIn } from '@/features/list-table/testing/fake-api';
import { endSession } from '@/lib/session';
import { catalogueStore } from './catalogue-store';
import { CatalogueProgress } from './components/catalogue-progress';
import { pollCatalogue, startCatalogueLoad } from './hooks/use-catalogue-loader';

vi.setConfig({ testTimeout: 20_000 });
afterEach(() => { vi.restoreAllMocks(); endSession(); vi.unstubAllGlobals(); });

const dict = { taxes: [], categories: [], brands: [], suppliers: [], terminals: [], departments: [], stores: [] };
const busy = (retryAfter: string) => new Response(JSON.stringify({ code: 'BUSY', message: 'The server is busy' }), {
  status: 503, headers: { 'content-type': 'application/json', 'retry-after': retryAfter },
});

/** The till's catalogue sync against a server shedding load (issue 30, point 2). */
describe('catalogue sync and a busy server', () => {
  it('says "Server busy — sales kept" instead of an error, backs off past Retry-After, and catches up when the server is free', async () => {
    signIn();
    let cursor = 1;
    let sync: () => Response | SyncPayload = () => busy('30');
    const api = fakeApi({
      'GET /discounts': hydra([]), 'GET /taxes': hydra([]), 'GET /payments': hydra([{ id: 1, name: 'Cash', type: 'cash' }]),
      'GET /devices': hydra([]), 'GET /settings': hydra([]),
      'GET /catalogue/sync': () => sync(),
    });
    const full = (): SyncPayload => ({ format: SYNC_FORMAT, full: true, cursor: String(cursor++), userId: 7, dict, products: [], removed: [] });
    const syncCalls = () => api.find('GET', '/catalogue/sync').length;

    // The first load meets a busy server: a notice, not the failure banner.
    await startCatalogueLoad();
    renderWithProviders(<CatalogueProgress />);
    expect(await screen.findByText(/Server busy — sales kept/)).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(catalogueStore.get()).toMatchObject({ status: 'error', busy: true });

    // The cashier's Retry (or the automatic one after the pause) loads it once the server answers.
    sync = full;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await vi.waitFor(() => expect(catalogueStore.get()).toMatchObject({ status: 'ready', busy: false }));
    expect(screen.queryByText(/Server busy/)).toBeNull();

    // A running till's delta sync meets a busy server: the notice again, and no request before Retry-After.
    sync = () => busy('30');
    await pollCatalogue();
    expect(catalogueStore.get().busy).toBe(true);
    expect(await screen.findByText(/Server busy — sales kept/)).toBeInTheDocument();
    const calls = syncCalls();
    const t0 = Date.now();
    const now = vi.spyOn(Date, 'now').mockReturnValue(t0 + 29_000);
    await pollCatalogue();
    await pollCatalogue(true); // the network coming back does not override a busy server's pause
    expect(syncCalls()).toBe(calls);

    // Past the pause (Retry-After plus at most half again of jitter) it asks again, and all is well.
    sync = full;
    now.mockReturnValue(t0 + 45_001);
    await pollCatalogue();
    expect(syncCalls()).toBe(calls + 1);
    expect(catalogueStore.get().busy).toBe(false);
    expect(screen.queryByText(/Server busy/)).toBeNull();
  });
});
