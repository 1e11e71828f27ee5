import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { clearCookies, jsonResponse, renderWithProviders } from '@/test/render';
import { COOKIE, writeCookie } from '@/lib/cookies';
import { BackupPanel } from './backup-panel';

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  clearCookies();
  writeCookie(COOKIE.token, 'jwt-owner');
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

const daily = { name: 'pos-2026-11-24T02-00-00-000Z-daily.posbak', size: 2_621_440, createdAt: '2026-11-24T02:00:00.000Z', kind: 'daily' };
const manual = { name: 'pos-2026-11-25T09-30-00-000Z-manual.posbak', size: 20_480, createdAt: '2026-11-25T09:30:00.000Z', kind: 'manual' };
const listOf = (backups: object[]) => ({ backups, last: backups[0] ?? null, directory: '/srv/pos/data/backups', daily: true, retention: { daily: 14, weekly: 8 } });
const calls = () => fetchMock.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${String(url)}`);

describe('backups page', () => {
  it('shows the last backup, every file with a download link, and takes one now', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(listOf([daily])))
      .mockResolvedValueOnce(jsonResponse({ backup: manual, tables: 60, rows: 1687 }))
      .mockResolvedValueOnce(jsonResponse(listOf([manual, daily])));
    renderWithProviders(<BackupPanel />);
    expect(await screen.findByTestId('backup-last')).toHaveTextContent(/Nov 24, 2026.*2\.5 MB \(daily\)/);
    expect(screen.getByText(/last 14 days and 8 weeks are kept/)).toBeInTheDocument();
    // The link carries no token (issue 21.5): a click downloads through fetch with the token in the header.
    const link = screen.getByRole('link', { name: `Download ${daily.name}` });
    expect(link).toHaveAttribute('href', `/api/admin/backups/${daily.name}`);

    await userEvent.setup().click(screen.getByRole('button', { name: 'Back up now' }));
    expect(await screen.findByText(`Backup taken: ${manual.name} (1687 rows).`)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('backup-last')).toHaveTextContent(/20 kB \(taken by hand\)/));
    expect(calls()).toEqual(['GET /api/admin/backups', 'POST /api/admin/backups', 'GET /api/admin/backups']);
    expect(screen.getAllByRole('row')).toHaveLength(3); // header + two files
  });

  it('downloads a file with the token in the Authorization header, never in the URL', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(listOf([daily])))
      .mockResolvedValueOnce(new Response('POSBAK', { status: 200, headers: { 'content-type': 'application/octet-stream' } }));
    const created = vi.fn(() => 'blob:backup');
    Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }); // jsdom has no blob URLs
    renderWithProviders(<BackupPanel />);
    await userEvent.setup().click(await screen.findByRole('link', { name: `Download ${daily.name}` }));
    await waitFor(() => expect(created).toHaveBeenCalledTimes(1));
    const [url, init] = fetchMock.mock.calls[1];
    expect(String(url)).toBe(`/api/admin/backups/${daily.name}`);
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer jwt-owner');
  });

  it('restores an uploaded file only after the confirmation, and says what it kept', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(listOf([daily])));
    renderWithProviders(<BackupPanel />);
    const user = userEvent.setup();
    const file = new File(['backup bytes'], 'shop.posbak', { type: 'application/octet-stream' });
    await user.upload(await screen.findByLabelText('Backup file'), file);

    // "No, wait": nothing is sent.
    await user.click(screen.getByRole('button', { name: 'Restore' }));
    const dialog = await screen.findByRole('dialog', { name: 'Restore' });
    expect(dialog).toHaveTextContent("Replace all of the shop's data with shop.posbak?");
    await user.click(within(dialog).getByRole('button', { name: 'No, wait' }));
    expect(calls()).toEqual(['GET /api/admin/backups']);

    fetchMock.mockResolvedValueOnce(jsonResponse({
      restored: { createdAt: daily.createdAt, tables: 60, rows: 1687, migration: '0007_account_sessions', migratedTo: '0007_account_sessions', ms: 900 },
      before: { ...manual, name: 'pos-2026-11-25T10-00-00-000Z-pre-restore.posbak', kind: 'pre-restore' },
    })).mockResolvedValue(jsonResponse(listOf([daily])));
    await user.click(screen.getByRole('button', { name: 'Restore' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Restore' })).getByRole('button', { name: 'Restore' }));
    expect(await screen.findByText(/^Restored the backup/)).toHaveTextContent(/Restored the backup of Nov 24, 2026.*\(1687 rows\)\. The data it replaced is kept as pos-2026-11-25T10-00-00-000Z-pre-restore\.posbak\./);
    const [url, init] = fetchMock.mock.calls[1];
    expect(`${init?.method} ${String(url)}`).toBe('POST /api/admin/backups/restore');
    expect((init?.body as FormData).get('file')).toBeInstanceOf(File);
    expect(((init?.body as FormData).get('file') as File).name).toBe('shop.posbak');
  });

  it('shows why a file is refused, and the owner-only message to other administrators', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(listOf([])))
      .mockResolvedValueOnce(jsonResponse({ code: 'VALIDATION_FAILED', message: 'x', violations: [{ propertyPath: 'file', message: 'The file is not a POS backup (not a compressed backup file).' }] }, 422));
    const { unmount } = renderWithProviders(<BackupPanel />);
    expect(await screen.findByTestId('backup-last')).toHaveTextContent('No backup yet.');
    const user = userEvent.setup();
    await user.upload(screen.getByLabelText('Backup file'), new File(['id,name'], 'products.posbak'));
    await user.click(screen.getByRole('button', { name: 'Restore' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Restore' })).getByRole('button', { name: 'Restore' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The file is not a POS backup (not a compressed backup file).');
    unmount();

    fetchMock.mockReset().mockResolvedValueOnce(jsonResponse({ code: 'FORBIDDEN', message: 'Only an owner (an administrator of every store) can back up or restore the shop: a backup holds every store.' }, 403));
    renderWithProviders(<BackupPanel />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Only an owner (an administrator of every store) can back up or restore the shop');
    expect(screen.queryByRole('button', { name: 'Back up now' })).not.toBeInTheDocument();
  });
});
