// GET /v2/catalog/gpus (the platform's REST API v2 document): GPU types with their serverless pool, memory and
// prices. A file apart from ./resourceSchemas.ts because dist/extension.js reads the catalog (per-job prices,
// src/core/cost/endpointPrices.ts) while releases, templates and worker logs are read only in dist/rooms.js.
// Read leniently like every response (extra fields pass), the document's required fields required.
import * as z from 'zod/mini';

/** `GpuType`: one GPU type; `pool` is its serverless pool (null: in none), prices per GPU per hour in USD. */
export const GpuType = z.looseObject({
  id: z.string().check(z.minLength(1)),
  name: z.string(),
  pool: z.nullable(z.string()),
  manufacturer: z.string(),
  /** VRAM, GB. */
  memory: z.int(),
  secure: z.boolean(),
  community: z.boolean(),
  price: z.looseObject({ secure: z.number(), community: z.number(), serverless: z.optional(z.number()) }),
  maxCount: z.looseObject({ secure: z.int(), community: z.int() }),
});
export type GpuType = z.infer<typeof GpuType>;

export const ListGpuTypesResponse = z.looseObject({ gpus: z.array(GpuType) });
export type ListGpuTypesResponse = z.infer<typeof ListGpuTypesResponse>;
