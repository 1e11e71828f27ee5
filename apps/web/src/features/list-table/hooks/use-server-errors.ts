import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { isHttpError } from '@/lib/api-client';
import { errorText } from '@/lib/form-errors';

/**
 * Spec 8: a 422 puts each violation on its field (propertyPath; `items[0].quantity` becomes
 * `items.0.quantity`) and toasts errorMessage; any other error toasts its text (title = error code).
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T> | null,
  notify: (message: string, title?: string) => void,
  fields: readonly string[] = [],
  title?: string,
): void {
  if (isHttpError(error, 422)) {
    const unmatched: string[] = [];
    for (const v of error.violations) {
      const path = v.propertyPath.replace(/\[(\d+)\]/g, '.$1');
      const root = path.split('.')[0];
      if (setError && fields.includes(root)) setError(path as Path<T>, { type: 'server', message: v.message });
      else unmatched.push(v.message);
    }
    notify(error.errorMessage || unmatched.join(', ') || error.message, title);
    return;
  }
  notify(errorText(error), isHttpError(error) ? String(error.code) : title);
}
