// The Edit Endpoint form's messages, both directions, as zod discriminated unions: imported by the host
// (editEndpointPanel.ts) and the page (media/endpointForm/main.ts); every message is validated on arrival.
// Numbers may arrive as null (an empty or unparsable field: JSON has no NaN); the host's check names them.
import * as z from 'zod/mini';

const num = z.nullable(z.number());

export const FormValuesMessage = z.strictObject({
  workersMin: num,
  workersMax: num,
  idleTimeout: num,
  scalerType: z.string(),
  scalerValue: num,
  timeoutSeconds: num,
  gpuPools: z.array(z.string()),
  gpuCount: num,
  flashboot: z.string(),
  image: z.string(),
});
export type FormValuesMessage = z.infer<typeof FormValuesMessage>;

const Field = z.strictObject({ name: z.string(), range: z.string() });

export const Preview = z.strictObject({
  diff: z.array(z.string()),
  money: z.array(z.string()),
  raisesAlwaysOn: z.boolean(),
  /** field name -> its error (range included). */
  errors: z.record(z.string(), z.string()),
  ranges: z.array(Field),
});
export type Preview = z.infer<typeof Preview>;

export const ToWebview = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('init'),
    endpointId: z.string(),
    name: z.string(),
    values: FormValuesMessage,
    /** Every pool of the GPU catalog with its price per GPU per hour (null: no price) and its GPUs. */
    pools: z.array(z.strictObject({ pool: z.string(), perHour: z.nullable(z.number()), gpus: z.string() })),
    preview: Preview,
    /** A line above the form (a conflict: the endpoint changed elsewhere, these are its new values). */
    notice: z.optional(z.string()),
  }),
  z.strictObject({ type: z.literal('preview'), preview: Preview }),
  z.strictObject({ type: z.literal('result'), ok: z.boolean(), message: z.string(), errors: z.array(z.string()) }),
  z.strictObject({ type: z.literal('busy'), busy: z.boolean() }),
]);
export type ToWebview = z.infer<typeof ToWebview>;

export const FromWebview = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ready') }),
  /** The values as typed: the host answers with the diff, the money and each field's error. */
  z.strictObject({ type: z.literal('values'), values: FormValuesMessage }),
  z.strictObject({ type: z.literal('apply'), values: FormValuesMessage }),
  /** Read the endpoint again and start from its current values. */
  z.strictObject({ type: z.literal('reload') }),
]);
export type FromWebview = z.infer<typeof FromWebview>;
