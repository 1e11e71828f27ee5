import { describe, expect, it } from 'vitest';
import { buildListParams, filterParamName, pageCount } from './list-query.ts';

describe('list query', () => {
  it('maps column ids to filter names', () => {
    expect(filterParamName('supplier_name')).toBe('supplier.name');
    expect(filterParamName('categories.name')).toBe('categories.name');
    expect(filterParamName('name')).toBe('name');
  });

  it('builds paging, sorting, filter and fixed params', () => {
    const p = buildListParams(
      { page: 2, pageSize: 25, sort: { id: 'name', desc: true }, filter: { column: 'supplier_name', value: ' acme ' } },
      { store: 1, isActive: undefined, q: '' },
    );
    expect(p.get('store')).toBe('1');
    expect(p.has('isActive')).toBe(false);
    expect(p.has('q')).toBe(false);
    expect(p.get('supplier.name')).toBe('acme');
    expect(p.get('page')).toBe('2');
    expect(p.get('itemsPerPage')).toBe('25');
    expect(p.get('order[name]')).toBe('desc');
    expect(p.toString()).toContain('order%5Bname%5D=desc');
  });

  it('skips an empty filter and counts pages', () => {
    const p = buildListParams({ page: 1, pageSize: 10, filter: { column: 'name', value: '  ' } });
    expect(p.has('name')).toBe(false);
    expect(pageCount(0, 10)).toBe(1);
    expect(pageCount(21, 10)).toBe(3);
  });
});
