import { useTranslation } from 'react-i18next';
import type { FacetSelection, Facets } from '@/features/catalogue-cache/product-index';

type Kind = keyof FacetSelection;

/** Brand, category and department filter buttons, each with its count badge. */
export function FacetFilters({ facets, selection, onChange }: { facets: Facets; selection: FacetSelection; onChange: (next: FacetSelection) => void }) {
  const { t } = useTranslation('sale');
  const toggle = (kind: Kind, id: number) => {
    const list = selection[kind];
    onChange({ ...selection, [kind]: list.includes(id) ? list.filter((x) => x !== id) : [...list, id] });
  };
  const groups: Array<[Kind, string]> = [['brands', t('filters.brands')], ['categories', t('filters.categories')], ['departments', t('filters.departments')]];
  const any = selection.brands.length + selection.categories.length + selection.departments.length > 0;
  return (
    <div className="facet-filters" aria-label={t('filters.title')} role="group">
      {groups.map(([kind, label]) =>
        facets[kind].length ? (
          <div key={kind} className="facet-group row" role="group" aria-label={label}>
            <span className="facet-label text-muted">{label}</span>
            {facets[kind].map((f) => {
              const on = selection[kind].includes(f.id);
              return (
                <button key={f.id} type="button" className={on ? 'chip chip-on' : 'chip'} aria-pressed={on} onClick={() => toggle(kind, f.id)}>
                  {f.name} <span className="badge">{f.count}</span>
                </button>
              );
            })}
          </div>
        ) : null,
      )}
      {any && (
        <button type="button" className="chip chip-clear" onClick={() => onChange({ brands: [], categories: [], departments: [] })}>
          {t('filters.clear')}
        </button>
      )}
    </div>
  );
}
