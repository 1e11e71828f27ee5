import type { ErrorCode, Violation } from '@pos/domain/errors';
import { readToken } from './cookies';
import { retryAfterSeconds } from './retry-after';

/** Fired on `window` when a request that carried a token gets a 401: the session is over. */
export const SESSION_EXPIRED_EVENT = 'session-expired';

const API_BASE = (import.meta.env.VITE_API_BASE_URL as string | undefined) ?? '/api';

/** A non-2xx answer. `message` is the body's message (falls back to the status text). */
export class HttpError extends Error {
  readonly status: number;
  readonly code: ErrorCode | string;
  /** 422 summary from the server, shown as a toast or banner; null when absent. */
  readonly errorMessage: string | null;
  /** Always an array (empty unless 422). */
  readonly violations: Violation[];
  readonly statusText: string;
  readonly body: unknown;
  /** The answer's Retry-After in seconds (a busy server's 503), null when it gave none. */
  readonly retryAfter: number | null;

  constructor(init: {
    status: number;
    statusText?: string;
    code?: string;
    message?: string;
    errorMessage?: string | null;
    violations?: Violation[];
    body?: unknown;
    retryAfter?: number | null;
  }) {
    super(init.message || init.statusText || `HTTP ${init.status}`);
    this.name = 'HttpError';
    this.status = init.status;
    this.statusText = init.statusText ?? '';
    this.code = init.code ?? defaultCode(init.status);
    this.errorMessage = init.errorMessage ?? null;
    this.violations = init.violations ?? [];
    this.body = init.body;
    this.retryAfter = init.retryAfter ?? null;
  }

  get isValidation(): boolean {
    return this.status === 422;
  }
}

/** No answer at all (offline, DNS, CORS, server down). */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : 'Network request failed', { cause });
    this.name = 'NetworkError';
  }
}

export const isHttpError = (error: unknown, status?: number): error is HttpError =>
  error instanceof HttpError && (status === undefined || error.status === status);

export type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue | QueryValue[]>;

export interface ApiFetchOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** undefined and null values are skipped; arrays repeat the key. */
  query?: Query;
  /** Plain values are sent as JSON; FormData goes as multipart (the browser sets the boundary). */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** `/api` + path + query string. Useful for links the browser opens itself (exports). */
export function apiUrl(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) if (v !== undefined && v !== null) params.append(key, String(v));
  }
  const qs = params.toString();
  const url = `${API_BASE}${path.startsWith('/') ? path : `/${path}`}`;
  return qs ? `${url}${url.includes('?') ? '&' : '?'}${qs}` : url;
}

/**
 * The one way to call our API. Resolves with the parsed JSON body (undefined for an empty body),
 * throws HttpError for non-2xx and NetworkError when there is no answer; an AbortError passes through.
 */
export async function apiFetch<T>(path: string, options: ApiFetchOptions = {}): Promise<T> {
  const { method = options.body === undefined ? 'GET' : 'POST', query, body, signal } = options;
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  const token = readToken();
  // Only a real token: the old client sent "Bearer undefined" when logged out.
  if (token) headers.Authorization = `Bearer ${token}`;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }

  let response: Response;
  try {
    response = await fetch(apiUrl(path, query), { method, headers, body: payload, signal, credentials: 'same-origin' });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new NetworkError(error);
  }

  const data = await readBody(response);
  if (response.ok) return data as T;

  const b = (data && typeof data === 'object' ? data : {}) as Record<string, unknown>;
  const error = new HttpError({
    status: response.status,
    statusText: response.statusText,
    code: typeof b.code === 'string' ? b.code : undefined,
    message: typeof b.message === 'string' ? b.message : typeof data === 'string' && data ? data : undefined,
    errorMessage: typeof b.errorMessage === 'string' ? b.errorMessage : null,
    violations: Array.isArray(b.violations) ? (b.violations as Violation[]) : [],
    body: data,
    retryAfter: retryAfterSeconds(response.headers.get('retry-after')),
  });
  // A 401 on an anonymous call (wrong password) is not an expired session.
  if (response.status === 401 && token && typeof window !== 'undefined') {
    window.dispatchEvent(new CustomEvent(SESSION_EXPIRED_EVENT, { detail: error }));
  }
  throw error;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text().catch(() => '');
  if (!text) return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

function defaultCode(status: number): string {
  switch (status) {
    case 400: return 'BAD_REQUEST';
    case 401: return 'UNAUTHORIZED';
    case 403: return 'FORBIDDEN';
    case 404: return 'NOT_FOUND';
    case 409: return 'CONFLICT';
    case 422: return 'VALIDATION_FAILED';
    case 429: return 'RATE_LIMITED';
    default: return status >= 500 ? 'INTERNAL' : 'HTTP_ERROR';
  }
}

/**
 * Downloads a file the API serves (CSV export, a backup) with the token in the Authorization
 * header, never in the URL (issue 21.5: a `?bearer=` token would land in logs and history); the
 * browser saves it under the server's Content-Disposition name, else `filename`.
 */
export async function downloadFile(path: string, filename: string, query?: Query): Promise<void> {
  const token = readToken();
  let response: Response;
  try {
    response = await fetch(apiUrl(path, query), { headers: token ? { Authorization: `Bearer ${token}` } : {}, credentials: 'same-origin' });
  } catch (error) {
    throw new NetworkError(error);
  }
  if (!response.ok) {
    const data = await readBody(response);
    const b = (data && typeof data === 'object' ? data : {}) as Record<string, unknown>;
    throw new HttpError({ status: response.status, statusText: response.statusText, code: typeof b.code === 'string' ? b.code : undefined, message: typeof b.message === 'string' ? b.message : undefined, body: data });
  }
  const named = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(response.headers.get('content-disposition') ?? '')?.[1];
  const url = URL.createObjectURL(await response.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = named ? decodeURIComponent(named) : filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
