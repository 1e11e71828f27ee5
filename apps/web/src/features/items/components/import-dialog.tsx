import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog } from '@/components/ui/dialog';
import { Select } from '@/components/ui/select';
import { toast } from '@/components/ui/toast';
import { errorText } from '@/lib/form-errors';
import { IMPORT_MAX_BYTES, downloadTemplate, previewImport, useImportItems, type ColumnMapping, type ImportPreview, type ImportResult } from '../api/import-items.ts';

const UNKNOWN = '\u0000unknown';

/**
 * "Import items" (issue 23.5): choose a CSV file -> a preview from the server's dry run (what each
 * column is read as, with a selector to map it to another column or ignore it; the first rows; every
 * error with its file line) -> Import (disabled while there are errors) -> what was created/updated.
 * Nothing is written before Import.
 */
export function ImportDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('backoffice');
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [mapping, setMapping] = useState<ColumnMapping>({});
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [checking, setChecking] = useState(false);
  const [done, setDone] = useState<ImportResult | null>(null);
  const [createUnknown, setCreateUnknown] = useState(false);
  const [tooLarge, setTooLarge] = useState(false);
  const importer = useImportItems();

  const check = async (f: File, m: ColumnMapping, create = createUnknown) => {
    setChecking(true);
    try {
      setPreview(await previewImport(f, { mapping: m, createUnknown: create }));
    } catch (error) {
      setPreview(null);
      toast.error(errorText(error));
    } finally {
      setChecking(false);
    }
  };

  const choose = (f: File | undefined) => {
    if (!f) return;
    setDone(null);
    setMapping({});
    // Refused here rather than after sending 50 MB (the server refuses it too).
    setTooLarge(f.size >= IMPORT_MAX_BYTES);
    if (f.size >= IMPORT_MAX_BYTES) { setFile(null); setPreview(null); return; }
    setFile(f);
    void check(f, {});
  };

  const remap = (header: string, field: string) => {
    const next = { ...mapping, [header]: field };
    setMapping(next);
    if (file) void check(file, next);
  };

  const run = async () => {
    if (!file) return;
    try {
      setDone(await importer.mutateAsync({ file, mapping, createUnknown }));
      toast.success(t('items.imported'));
    } catch (error) {
      toast.error(errorText(error));
    }
  };

  const errors = preview?.errors ?? [];
  const badRows = new Set(errors.map((e) => e.row));
  const canImport = Boolean(file && preview && !errors.length && !checking && !done);

  return (
    <Dialog
      open
      onClose={onClose}
      size="lg"
      title={t('csvImport.title')}
      footer={done ? <Button onClick={onClose}>{t('csvImport.close')}</Button> : (
        <Button onClick={() => void run()} loading={importer.isPending} disabled={!canImport}>{t('csvImport.import')}</Button>
      )}
    >
      <div className="stack">
        <p>{t('csvImport.intro')}</p>
        <div className="row">
          <input
            ref={fileInput}
            type="file"
            accept="text/csv,.csv"
            hidden
            aria-label={t('items.uploadFile')}
            onChange={(e) => {
              const f = e.target.files?.[0];
              e.target.value = '';
              choose(f);
            }}
          />
          <Button variant="secondary" loading={checking} onClick={() => fileInput.current?.click()}>
            {file ? t('csvImport.chooseAnother') : t('csvImport.choose')}
          </Button>
          <Button variant="ghost" onClick={() => downloadTemplate().catch((error) => toast.error(errorText(error)))}>
            {t('csvImport.template')}
          </Button>
        </div>
        <Checkbox
          label={t('csvImport.createUnknown')}
          checked={createUnknown}
          onChange={(e) => {
            setCreateUnknown(e.target.checked);
            if (file) void check(file, mapping, e.target.checked);
          }}
        />
        {tooLarge && <p role="alert" className="csv-import-errors">{t('csvImport.tooLarge')}</p>}
        {file && <p>{t('csvImport.file', { name: file.name })}</p>}
        {done && (
          <p role="status">{t('csvImport.done', { created: done.created, updated: done.updated, unchanged: done.unchanged })}</p>
        )}
        {preview && !done && (
          <>
            <p role="status">
              {t('csvImport.rows', { count: preview.rows })}{' '}
              {preview.result
                ? t('csvImport.wouldDo', { created: preview.result.created, updated: preview.result.updated, unchanged: preview.result.unchanged })
                : t('csvImport.errorCount', { count: errors.length, more: preview.moreErrors ? '+' : '' })}
            </p>
            <h3>{t('csvImport.columns')}</h3>
            <div className="csv-import-columns">
              {preview.columns.map((c) => (
                <Select
                  key={c.index}
                  label={c.header || t('csvImport.columnN', { n: c.index + 1 })}
                  value={c.field ?? (c.status === 'ignored' ? '' : UNKNOWN)}
                  error={c.status === 'unknown' || c.status === 'duplicate' ? t(`csvImport.status.${c.status}`) : undefined}
                  options={[
                    ...(c.field == null && c.status !== 'ignored' ? [{ value: UNKNOWN, label: t('csvImport.chooseField'), disabled: true }] : []),
                    { value: '', label: t('csvImport.ignore') },
                    ...preview.fields.map((f) => ({ value: f, label: f })),
                  ]}
                  onChange={(e) => remap(c.header, e.target.value)}
                />
              ))}
            </div>
            {errors.length > 0 && (
              <>
                <h3>{t('csvImport.errors')}</h3>
                <ul className="csv-import-errors" aria-label={t('csvImport.errors')}>
                  {errors.map((e, i) => (
                    <li key={i}>
                      {t('csvImport.errorAt', { line: e.line, column: e.field ?? '' })} {e.message}
                    </li>
                  ))}
                </ul>
              </>
            )}
            <h3>{t('csvImport.firstRows')}</h3>
            <div>
              <table className="table csv-import-sample">
                <thead>
                  <tr>
                    <th scope="col">{t('csvImport.line')}</th>
                    {preview.columns.map((c) => <th key={c.index} scope="col">{c.header}</th>)}
                  </tr>
                </thead>
                <tbody>
                  {preview.sample.map((r) => (
                    <tr key={r.row} className={badRows.has(r.row) ? 'is-error' : undefined} aria-invalid={badRows.has(r.row) || undefined}>
                      <th scope="row">{r.line}</th>
                      {r.cells.map((cell, i) => <td key={i}>{cell}</td>)}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </div>
    </Dialog>
  );
}
