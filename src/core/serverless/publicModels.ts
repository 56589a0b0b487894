// The platform's public endpoints ("Public Endpoints": models it hosts, billed to the account per use but
// never in its endpoint list), as one data table: the sidebar shows them under "Public models" with their
// billing (never as "deleted"), every endpoint picker offers them in their own group, and the emulator's demo
// serves the same ids. No `vscode` import.
//
// Source: https://docs.runpod.io/hub/public-endpoints (the Flux ids and their per-megapixel prices: $0.02 per
// megapixel for Flux Dev, $0.0024 for Flux Schnell, a 1024x1024 image being about one megapixel) and
// https://docs.runpod.io/public-endpoints/overview (the families: image, video, audio, text). The stored docs
// gave no id or price for a video or a speech model: `wan-2-1-video` and `kokoro-tts` are the demo's ids for
// those kinds, and their price is left unknown rather than guessed.

export type PublicModelKind = 'image' | 'video' | 'audio';

export interface PublicModel {
  /** The endpoint id in /v2/{id}/run. */
  id: string;
  name: string;
  kind: PublicModelKind;
  /** The documented price, as the platform words it; absent when the documentation found gives none. */
  price?: string;
  /** Where the id (and price) come from. */
  source: string;
}

const HUB_PAGE = 'https://docs.runpod.io/hub/public-endpoints';

export const PUBLIC_MODELS: readonly PublicModel[] = [
  { id: 'black-forest-labs-flux-1-schnell', name: 'FLUX.1 schnell', kind: 'image', price: '$0.0024 per megapixel', source: HUB_PAGE },
  { id: 'black-forest-labs-flux-1-dev', name: 'FLUX.1 dev', kind: 'image', price: '$0.02 per megapixel', source: HUB_PAGE },
  { id: 'wan-2-1-video', name: 'Wan 2.1 video', kind: 'video', source: 'the demo (no video model id found in the stored docs)' },
  { id: 'kokoro-tts', name: 'Kokoro TTS', kind: 'audio', source: 'the demo (no speech model id found in the stored docs)' },
];

const byId = new Map(PUBLIC_MODELS.map((m) => [m.id, m]));

/** The public model with this endpoint id, if it is one. */
export function publicModel(id: string): PublicModel | undefined {
  return byId.get(id);
}

/** The catalog's first model of a kind (the emulator's demo endpoint of that kind). */
export function publicModelOfKind(kind: PublicModelKind): PublicModel {
  const model = PUBLIC_MODELS.find((m) => m.kind === kind);
  if (!model) throw new Error(`no public model of kind ${kind}`);
  return model;
}
