// The endpoints the user added by id ("Add Endpoint"), with an optional display name, per connection profile:
// a dedicated endpoint of one account means nothing on another. Kept in globalState (user data, never in a
// workspace file).
import type * as vscode from 'vscode';
import * as z from 'zod/mini';
import { zCatch } from '../core/zodCatch';
import type { AddedEndpoint } from './billingTreeModel';

const KEY_PREFIX = 'serverlessGpu.addedEndpoints:';
const StoredEndpoint = z.object({ id: z.string(), displayName: zCatch(z.optional(z.string()), undefined) });

export class AddedEndpoints {
  constructor(private readonly state: vscode.Memento) {}

  list(profileName: string): AddedEndpoint[] {
    const raw = this.state.get<unknown>(KEY_PREFIX + profileName);
    if (!Array.isArray(raw)) return [];
    // Entry by entry: one damaged entry (an older shape, a hand-edited state) does not lose the others.
    return raw.flatMap((e): AddedEndpoint[] => {
      const parsed = StoredEndpoint.safeParse(e);
      if (!parsed.success) return [];
      const { id, displayName } = parsed.data;
      return [displayName ? { id, displayName } : { id }];
    });
  }

  /** Adds or renames: an id appears once. */
  async add(profileName: string, endpoint: AddedEndpoint): Promise<void> {
    const rest = this.list(profileName).filter((e) => e.id !== endpoint.id);
    await this.state.update(KEY_PREFIX + profileName, [...rest, endpoint]);
  }

  async remove(profileName: string, id: string): Promise<boolean> {
    const all = this.list(profileName);
    const rest = all.filter((e) => e.id !== id);
    await this.state.update(KEY_PREFIX + profileName, rest);
    return rest.length !== all.length;
  }
}
