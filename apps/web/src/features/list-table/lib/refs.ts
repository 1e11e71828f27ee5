/** IRIs (API Platform style resource paths) and ids. */

export function iri(collection: string, id: number | string): string {
  return `/api/${collection}/${id}`;
}

/** Numeric id of an IRI, an id or an object with id / @id; null when none. */
export function idOf(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string') {
    const m = /(\d+)\s*$/.exec(value);
    return m ? Number(m[1]) : null;
  }
  if (typeof value === 'object') {
    const o = value as { id?: unknown; '@id'?: unknown };
    return idOf(o.id ?? o['@id']);
  }
  return null;
}

/** The IRI of an embedded object (its @id) or built from its id. */
export function iriOf(collection: string, value: { '@id'?: string; id?: number | string } | null | undefined): string | null {
  if (!value) return null;
  if (value['@id']) return value['@id'];
  return value.id !== undefined ? iri(collection, value.id) : null;
}
