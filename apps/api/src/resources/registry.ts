import type { ResourceDef } from './engine.ts';
import { storesResource } from './definitions/stores.ts';
import { taxesResource } from './definitions/taxes.ts';

/** Every plain resource served by the engine. Add a definition here to expose it. */
export const resources: ResourceDef[] = [storesResource, taxesResource];
