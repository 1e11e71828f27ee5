import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/helpers.ts';

describe('health', () => {
  it('answers 503 in the error shape when the database is unreachable', async () => {
    const t = await createTestApp({ seed: false });
    try {
      expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      // Make every database call fail, as a lost connection would.
      t.database.ping = async () => { throw new Error('connection lost'); };
      const res = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ code: 'UNAVAILABLE', status: 'unavailable' });
    } finally {
      await t.close();
    }
  });
});
