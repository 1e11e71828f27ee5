import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Spinner } from '@/components/ui/spinner';
import { errorText } from '@/lib/form-errors';
import { apiGet } from '../api/http.ts';

export interface RecordPageProps<T> {
  /** The collection, e.g. '/products'; the record is GET {collection}/{id}, as the server has it now. */
  collection: string;
  id: number;
  /** Where "Back to the list" leads when the record cannot be read. */
  back: string;
  children: (record: T) => ReactNode;
}

/** A record opened by its URL (/admin/catalogue/12): loads it, then renders its form; a missing one says so. */
export function RecordPage<T>({ collection, id, back, children }: RecordPageProps<T>) {
  const { t } = useTranslation('backoffice');
  const valid = Number.isInteger(id) && id > 0;
  const query = useQuery({
    queryKey: [collection, 'item', id],
    queryFn: () => apiGet<T>(`${collection}/${id}`),
    enabled: valid,
    gcTime: 0,
    retry: false,
  });
  if (valid && query.data) return <>{children(query.data)}</>;
  if (valid && !query.isError) return <Spinner />;
  return (
    <div role="alert" className="record-missing">
      <p>{valid ? errorText(query.error) : t('records.notFound')}</p>
      <Link to={back}>{t('records.backToList')}</Link>
    </div>
  );
}
