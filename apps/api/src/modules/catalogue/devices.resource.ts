import { isIP } from 'node:net';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { text, flag } from '@pos/domain/wire-fields';
import { ADDRESS_MESSAGE, HOST_NAME } from '@pos/domain/network';
import { device } from '../../db/schema/index.ts';
import type { ResourceDef } from '../../resources/engine.ts';
import { bool, exact, partial } from '../../resources/filters.ts';
import { intField, stamps } from './shared.ts';

/** A printer's address: an IPv4/IPv6 address or a host name (letters, digits, hyphens, dots). */
const address = text().refine((v) => isIP(v) !== 0 || HOST_NAME.test(v), ADDRESS_MESSAGE);

const body = z.object({
  name: text(),
  ipAddress: address,
  port: intField(1, 65535),
  /** Copies per print, at least 1. */
  prints: intField(1, 100).optional(),
  /** Paper width in mm: 80 (48 columns, the default) or 58 (32 columns). */
  paperWidth: z.union([z.literal(58), z.literal(80)]).optional(),
  isActive: flag().optional(),
});

/** Receipt printers (not store-scoped). Read by any user, written by admins. */
export const devicesResource: ResourceDef<typeof device.$inferSelect> = {
  path: 'devices',
  type: 'Device',
  table: device,
  filters: { name: partial(device.name), ipAddress: partial(device.ipAddress), isActive: bool(device.isActive), id: exact(device.id, 'int') },
  sorts: { id: device.id, name: device.name, ipAddress: device.ipAddress, port: device.port },
  async present(rows) {
    return rows.map((d) => ({ id: d.id, name: d.name, ipAddress: d.ipAddress, port: d.port, prints: d.prints, paperWidth: d.paperWidth, deliveredBy: d.deliveredBy, isActive: d.isActive, ...stamps(d) }));
  },
  create: {
    schema: body,
    async run(tx, input) {
      const [row] = await tx.insert(device).values({ ...input, prints: input.prints ?? 1, isActive: input.isActive ?? true }).returning({ id: device.id });
      return row.id;
    },
  },
  update: {
    schema: body.partial(),
    async run(tx, id, input) {
      if (Object.keys(input).length) await tx.update(device).set({ ...input, updatedAt: new Date() }).where(eq(device.id, id));
    },
  },
  async remove(tx, id) {
    await tx.delete(device).where(eq(device.id, id));
  },
};
