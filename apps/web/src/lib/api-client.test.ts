import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearCookies, jsonResponse } from '@/test/render';
import { HttpError, NetworkError, SESSION_EXPIRED_EVENT, apiFetch, apiUrl, downloadFile, isHttpError } from './api-client';
import { COOKIE, writeCookie } from './cookies';

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  clearCookies();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

const lastCall = () => {
  const [url, init] = fetchMock.mock.calls.at(-1)!;
  return { url: String(url), init: init!, headers: init!.headers as Record<string, string> };
};

describe('apiFetch request', () => {
  it('prefixes /api, builds the query skipping undefined and null, and sends JSON', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ ok: true }));
    const result = await apiFetch<{ ok: boolean }>('/customers', {
      method: 'POST',
      query: { page: 1, name: undefined, phone: null, flag: false, 'order[name]': 'asc', ids: [1, 2] },
      body: { name: 'Ann' },
    });
    expect(result).toEqual({ ok: true });
    const { url, init, headers } = lastCall();
    expect(url).toBe('/api/customers?page=1&flag=false&order%5Bname%5D=asc&ids=1&ids=2');
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"name":"Ann"}');
    expect(headers['Content-Type']).toBe('application/json');
  });

  it('sends the bearer token only when the JWT cookie exists (never "Bearer undefined")', async () => {
    fetchMock.mockResolvedValue(jsonResponse({}));
    await apiFetch('/auth/info');
    expect(lastCall().headers.Authorization).toBeUndefined();
    writeCookie(COOKIE.token, 'abc.def');
    await apiFetch('/auth/info');
    expect(lastCall().headers.Authorization).toBe('Bearer abc.def');
  });

  it('returns undefined for an empty body and passes FormData without a JSON content type', async () => {
    fetchMock.mockResolvedValue(new Response(null, { status: 204 }));
    const form = new FormData();
    form.append('file', new Blob(['a,b']), 'items.csv');
    expect(await apiFetch('/products/import', { body: form })).toBeUndefined();
    expect(lastCall().init.body).toBe(form);
    expect(lastCall().headers['Content-Type']).toBeUndefined();
  });

  it('builds URLs for links the browser opens itself', () => {
    expect(apiUrl('/admin/product/export', { bearer: 'x y' })).toBe('/api/admin/product/export?bearer=x+y');
  });
});

describe('downloadFile (issue 21.5: no token in a URL)', () => {
  it("sends the token in the Authorization header, never as ?bearer=, and saves under the server's file name", async () => {
    writeCookie(COOKIE.token, 'abc.def');
    fetchMock.mockResolvedValue(new Response('id,name\n', { status: 200, headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="products-2026.csv"' } }));
    const saved: string[] = [];
    Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => undefined }); // jsdom has no blob URLs
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) { saved.push(this.download); });
    await downloadFile('/admin/product/export', 'products.csv');
    expect(lastCall().url).toBe('/api/admin/product/export');
    expect(lastCall().headers.Authorization).toBe('Bearer abc.def');
    expect(saved).toEqual(['products-2026.csv']);
    click.mockRestore();
  });

  it('a refusal is an HttpError, nothing saved', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ code: 'FORBIDDEN', message: 'Access Denied.' }, 403));
    await expect(downloadFile('/admin/product/export', 'products.csv')).rejects.toMatchObject({ status: 403, message: 'Access Denied.' });
  });
});

describe('apiFetch errors', () => {
  it('maps a 422 body to HttpError with code, errorMessage and violations', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(
        { code: 'VALIDATION_FAILED', message: 'name: blank', errorMessage: 'name: blank', violations: [{ propertyPath: 'name', message: 'This value should not be blank.' }] },
        422,
      ),
    );
    const error = await apiFetch('/customers', { body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({
      status: 422,
      code: 'VALIDATION_FAILED',
      message: 'name: blank',
      errorMessage: 'name: blank',
      violations: [{ propertyPath: 'name', message: 'This value should not be blank.' }],
    });
    expect(isHttpError(error, 422)).toBe(true);
  });

  it('maps a plain error body; violations are always an array', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ code: 'NOT_FOUND', message: 'Order not found' }, 404));
    const error = (await apiFetch('/orders/9').catch((e: unknown) => e)) as HttpError;
    expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND', message: 'Order not found', errorMessage: null, violations: [] });
  });

  it('falls back to a status code and status text for a non-JSON error', async () => {
    fetchMock.mockResolvedValue(new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway', headers: { 'content-type': 'text/html' } }));
    const error = (await apiFetch('/x').catch((e: unknown) => e)) as HttpError;
    expect(error.status).toBe(502);
    expect(error.code).toBe('INTERNAL');
    expect(error.violations).toEqual([]);
  });

  it('throws NetworkError when there is no answer, and lets an abort through', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(apiFetch('/x')).rejects.toBeInstanceOf(NetworkError);
    fetchMock.mockRejectedValueOnce(new DOMException('aborted', 'AbortError'));
    await expect(apiFetch('/x')).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('fires session-expired on a 401 only when a token was sent', async () => {
    const listener = vi.fn();
    window.addEventListener(SESSION_EXPIRED_EVENT, listener);
    fetchMock.mockImplementation(async () => jsonResponse({ code: 'INVALID_CREDENTIALS', message: 'Invalid credentials.' }, 401));
    await expect(apiFetch('/auth/login_check', { body: {} })).rejects.toMatchObject({ status: 401, message: 'Invalid credentials.' });
    expect(listener).not.toHaveBeenCalled();
    writeCookie(COOKIE.token, 'expired');
    await expect(apiFetch('/orders')).rejects.toBeInstanceOf(HttpError);
    expect(listener).toHaveBeenCalledTimes(1);
    window.removeEventListener(SESSION_EXPIRED_EVENT, listener);
  });
});
