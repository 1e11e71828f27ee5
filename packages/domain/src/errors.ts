/**
 * The one error shape of the product, shared by server and client.
 * 422 bodies: {code, message, errorMessage, violations:[{propertyPath, message}]} (violations always an array);
 * every other error: {code, message}.
 */
export type ErrorCode =
  | 'VALIDATION_FAILED'
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'TOKEN_EXPIRED'
  | 'INVALID_CREDENTIALS'
  | 'ACCOUNT_DISABLED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'RATE_LIMITED'
  | 'UNAVAILABLE'
  /** 503: the server is shedding load (admission control, or a statement over its class's time limit); retry after Retry-After. */
  | 'BUSY'
  | 'INTERNAL';

export interface Violation {
  propertyPath: string;
  message: string;
}

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  errorMessage?: string | null;
  violations?: Violation[];
}

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly violations: Violation[] = [],
  ) {
    super(message);
    this.name = 'AppError';
  }

  toBody(): ErrorBody {
    if (this.status === 422) {
      return { code: this.code, message: this.message, errorMessage: this.message, violations: this.violations };
    }
    return { code: this.code, message: this.message };
  }
}

export const notFound = (message = 'Not Found') => new AppError(404, 'NOT_FOUND', message);
export const forbidden = (message = 'Access Denied.') => new AppError(403, 'FORBIDDEN', message);
export const unauthorized = (message = 'JWT Token not found', code: ErrorCode = 'UNAUTHORIZED') => new AppError(401, code, message);
export const conflict = (message: string) => new AppError(409, 'CONFLICT', message);
export const badRequest = (message: string) => new AppError(400, 'BAD_REQUEST', message);

/** A 422 naming each field; the summary is the violations joined, as the till toasts it. */
export function validationError(violations: Violation[], errorMessage?: string): AppError {
  const message = errorMessage ?? violations.map((v) => `${v.propertyPath}: ${v.message}`).join(', ');
  return new AppError(422, 'VALIDATION_FAILED', message || 'Validation failed', violations);
}

export function violation(propertyPath: string, message: string): AppError {
  return validationError([{ propertyPath, message }]);
}
