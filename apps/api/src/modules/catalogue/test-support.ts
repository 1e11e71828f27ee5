import type { LightMyRequestResponse } from 'fastify';
import { createStaff, type TestApp } from '../../../test/helpers.ts';

/** Shared helpers of the catalogue tests (not a test file itself). */
export interface Api {
  get(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  post(url: string, payload: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  put(url: string, payload: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  del(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
}

export function api(t: TestApp, defaultHeaders: () => Record<string, string>): Api {
  return {
    get: (url, headers) => t.app.inject({ method: 'GET', url, headers: headers ?? defaultHeaders() }),
    post: (url, payload, headers) => t.app.inject({ method: 'POST', url, payload: payload as any, headers: headers ?? defaultHeaders() }),
    put: (url, payload, headers) => t.app.inject({ method: 'PUT', url, payload: payload as any, headers: headers ?? defaultHeaders() }),
    del: (url, headers) => t.app.inject({ method: 'DELETE', url, headers: headers ?? defaultHeaders() }),
  };
}

/** Creates an admin who belongs to the given stores only, and logs them in. */
export async function storeAdmin(t: TestApp, username: string, stores: number[]): Promise<Record<string, string>> {
  const { password } = await createStaff(t, { username, roles: ['ROLE_ADMIN'], stores });
  return t.login(username, password);
}

/** A multipart/form-data body with one file field. */
export function multipart(content: Buffer | string, field = 'file', filename = 'products.csv') {
  const boundary = '----posTestBoundary7MA4YWxkTrZu0gW';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: text/csv\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, typeof content === 'string' ? Buffer.from(content, 'utf8') : content, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

export const members = (res: LightMyRequestResponse) => res.json()['hydra:member'] as any[];
export const paths = (res: LightMyRequestResponse) => ((res.json().violations ?? []) as { propertyPath: string }[]).map((v) => v.propertyPath);
export const messageAt = (res: LightMyRequestResponse, path: string) =>
  ((res.json().violations ?? []) as { propertyPath: string; message: string }[]).find((v) => v.propertyPath === path)?.message;
