import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost, apiPut } from '../api/http.ts';

export interface SaveEntityOptions {
  /** POST target on create, e.g. '/stores'. */
  createPath: string;
  /** PUT target on update; defaults to `${createPath}/${id}`. */
  updatePath?: (id: number | string) => string;
  /** Query key prefixes reloaded after a save. */
  invalidate: ReadonlyArray<readonly unknown[]>;
}

/** POST when there is no id, PUT by id otherwise; reloads the given lists on success. */
export function useSaveEntity<R = unknown>({ createPath, updatePath, invalidate }: SaveEntityOptions) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number | string | null; body: unknown }) =>
      id !== undefined && id !== null ? apiPut<R>(updatePath ? updatePath(id) : `${createPath}/${id}`, body) : apiPost<R>(createPath, body),
    onSuccess: async () => {
      await Promise.all(invalidate.map((queryKey) => client.invalidateQueries({ queryKey })));
    },
  });
}
