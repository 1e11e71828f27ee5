import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import i18n from './i18n';
import { HttpError, NetworkError } from './api-client';

/** The text to show for any thrown error (banner or toast). */
export function errorText(error: unknown): string {
  if (error instanceof HttpError) return error.errorMessage || error.message;
  if (error instanceof NetworkError) return i18n.t('common:networkError');
  if (error instanceof Error && error.message) return error.message;
  return i18n.t('common:unexpectedError');
}

/**
 * Puts a 422's violations on the matching form fields (propertyPath = field name) and returns the
 * banner text: errorMessage for a 422 (only when some violation has no field), else the error's message.
 * Pass `fields` to say which paths exist in this form.
 */
export function applyServerErrors<T extends FieldValues>(error: unknown, setError: UseFormSetError<T>, fields: readonly Path<T>[]): string | null {
  if (error instanceof HttpError && error.status === 422 && error.violations.length > 0) {
    const unplaced: string[] = [];
    for (const v of error.violations) {
      if ((fields as readonly string[]).includes(v.propertyPath)) setError(v.propertyPath as Path<T>, { type: 'server', message: v.message });
      else unplaced.push(v.message);
    }
    return unplaced.length ? error.errorMessage || unplaced.join(', ') : null;
  }
  return errorText(error);
}
