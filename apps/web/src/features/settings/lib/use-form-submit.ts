import { useCallback } from 'react';
import type { FieldValues, UseFormSetError } from 'react-hook-form';
import { toast } from '@/components/ui/toast';
import { applyServerErrors } from '@/features/list-table/hooks/use-server-errors';
import { useSaveEntity, type SaveEntityOptions } from '@/features/list-table/hooks/use-save-entity';

/**
 * Saves a settings form: POST or PUT, then close; a 422 marks the fields and toasts errorMessage.
 */
export function useFormSubmit<V extends FieldValues>(
  options: SaveEntityOptions & { id: number | null | undefined; onDone: () => void; setError: UseFormSetError<V>; fields: readonly string[] },
) {
  const save = useSaveEntity(options);
  const { id, onDone, setError, fields } = options;
  const submit = useCallback(
    async (body: unknown) => {
      try {
        await save.mutateAsync({ id, body });
        onDone();
      } catch (error) {
        applyServerErrors(error, setError, (m, title) => toast.error(m, { title }), fields);
      }
    },
    [save, id, onDone, setError, fields],
  );
  return { submit, saving: save.isPending };
}
