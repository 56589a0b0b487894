// Templates (REST v2 /v2/templates: listTemplates, createTemplate, getTemplate, updateTemplate, deleteTemplate):
// a user's reusable container settings, kept per account in memory. An endpoint created from one takes a copy
// (later edits do not reach it); a template an endpoint was created from cannot be deleted (400), as the
// reference says of a template "bound to a serverless endpoint".
import { randomBytes } from 'node:crypto';
import type { Template } from '../../core/serverless/resourceSchemas';
import type { CreateTemplateRequest, UpdateTemplateRequest } from '../../core/serverless/requestSchemas';
import type { Account } from '../http/auth';

const stores = new WeakMap<Account, Map<string, Template>>();

export function templatesOf(account: Account): Map<string, Template> {
  let s = stores.get(account);
  if (!s) stores.set(account, (s = new Map()));
  return s;
}

/** An id in the platform's style: 10 lowercase letters and digits. */
export function newId(length: number, taken: (id: string) => boolean): string {
  for (;;) {
    const id = [...randomBytes(length)].map((b) => 'abcdefghijklmnopqrstuvwxyz0123456789'[b % 36]).join('');
    if (!taken(id) && id !== 'serverless') return id;
  }
}

export function createTemplate(account: Account, body: CreateTemplateRequest): Template {
  const store = templatesOf(account);
  const t: Template = {
    id: newId(10, (id) => store.has(id)),
    name: body.name,
    image: body.image,
    args: body.args ?? '',
    disk: body.disk ?? 20,
    mounts: body.mounts ?? {},
    ports: body.ports ?? [],
    env: body.env ?? {},
    registry: body.registry ?? null,
    // The reference's defaults: a pod template unless said otherwise, NVIDIA, SSH and Jupyter on.
    serverless: body.serverless ?? false,
    public: body.public ?? false,
    category: body.category ?? 'NVIDIA',
    startSsh: body.startSsh ?? true,
    startJupyter: body.startJupyter ?? true,
    allowedCudaVersions: body.allowedCudaVersions ?? [],
  };
  store.set(t.id, t);
  return t;
}

/** Only the fields sent change; `mounts: {}` leaves the mount as it is (the reference's PATCH semantics). */
export function updateTemplate(t: Template, body: UpdateTemplateRequest): Template {
  const { mounts, ...rest } = body;
  Object.assign(t, rest);
  if (mounts && Object.keys(mounts).length) t.mounts = mounts;
  return t;
}
