import { validationError, type Violation } from '@pos/domain/errors';
import { BLANK, parseRef } from '@pos/domain/wire-fields';
import { isJunk } from '../../resources/engine.ts';

/** Request helpers shared by the expense and closing routes. */
export function objectBody(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw validationError([{ propertyPath: '', message: 'The request body should be a JSON object.' }]);
  }
  return body as Record<string, unknown>;
}

/** Required integer ids from the query (`store=1` or `/api/stores/1`); one 422 naming every bad parameter. */
export function queryIds<K extends string>(query: Record<string, unknown>, names: K[]): Record<K, number> {
  const out = {} as Record<K, number>;
  const violations: Violation[] = [];
  for (const name of names) {
    const raw = Array.isArray(query[name]) ? (query[name] as unknown[])[0] : query[name];
    if (isJunk(name, raw)) { violations.push({ propertyPath: name, message: BLANK }); continue; }
    const id = parseRef(String(raw));
    if (id == null) violations.push({ propertyPath: name, message: 'This value is not a valid reference.' });
    else out[name] = id;
  }
  if (violations.length) throw validationError(violations);
  return out;
}
