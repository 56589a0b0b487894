// What the runner remembers per workspace: the endpoint chosen for each input file (so "Run" needs no
// question the second time), the last input sent to each endpoint (offered by "Run Job…") and the endpoints
// used here, per service. Kept in workspaceState: it is about this workspace's files, and must survive a restart.
// "Used here" is per service (the active profile's jobs base URL): an endpoint id belongs to one account on one
// service, so after a switch of profile the ids used on the other one are neither offered as "used here" nor
// listed first, ahead of the account's own endpoints (they crowded the pickers after a switch).
import type * as vscode from 'vscode';
import { isValidId } from '../core/ids';
import type { JobInput } from '../core/schemas';

const FILE_ENDPOINTS = 'serverlessGpu.fileEndpoints.v1';
const LAST_INPUTS = 'serverlessGpu.lastInputs.v1';
/** Before per-service lists: one list for the workspace, read as the list of the first service that asks. */
const USED_ENDPOINTS_V1 = 'serverlessGpu.usedEndpoints.v1';
/** { service: ids used there, most recent first }, the most recently used service last. */
const USED_ENDPOINTS = 'serverlessGpu.usedEndpoints.v2';
const MAX_USED = 30;
const MAX_SERVICES = 20;

export interface LastInput {
  input: JobInput;
  inputFile?: string;
  at: number;
}

export class EndpointMemory {
  /** `service`: where jobs go now (the active profile's jobs base URL); '' when unknown (one list for all). */
  constructor(private readonly memento: vscode.Memento, private readonly service: () => string = () => '') {}

  endpointFor(file: vscode.Uri): string | undefined {
    const map = this.memento.get<Record<string, string>>(FILE_ENDPOINTS, {});
    const v = map[file.toString()];
    // workspaceState is the workspace's to write (an extension, a synced profile, a hand edit): an id that
    // would change the route is not used, so the picker asks again and says why if it is typed (issue 12).
    return isValidId(v, 'endpoint') ? v : undefined;
  }

  async rememberEndpoint(file: vscode.Uri, endpointId: string): Promise<void> {
    const map = { ...this.memento.get<Record<string, string>>(FILE_ENDPOINTS, {}), [file.toString()]: endpointId };
    await this.memento.update(FILE_ENDPOINTS, map);
    await this.rememberUsed(endpointId);
  }

  lastInput(endpointId: string): LastInput | undefined {
    if (!isValidId(endpointId, 'endpoint')) return undefined;
    const v = this.memento.get<Record<string, LastInput>>(LAST_INPUTS, {})[endpointId];
    return v && typeof v === 'object' && v.input && typeof v.input === 'object' ? v : undefined;
  }

  async rememberInput(endpointId: string, input: JobInput, inputFile?: vscode.Uri): Promise<void> {
    const entry: LastInput = { input, at: Date.now(), ...(inputFile ? { inputFile: inputFile.toString() } : {}) };
    await this.memento.update(LAST_INPUTS, { ...this.memento.get<Record<string, LastInput>>(LAST_INPUTS, {}), [endpointId]: entry });
    await this.rememberUsed(endpointId);
  }

  /** Endpoints used here on the active service, most recent first. */
  usedEndpoints(): string[] {
    const byService = this.usedByService();
    const v = byService[this.service()] ?? (Object.keys(byService).length === 0 ? this.memento.get<unknown>(USED_ENDPOINTS_V1, []) : []);
    return Array.isArray(v) ? v.filter((x): x is string => isValidId(x, 'endpoint')) : [];
  }

  /**
   * Forgets which endpoints were used here (Clear Job History does it with the history: both say what was run
   * in this workspace). The endpoint chosen per file stays: it is a setting of the file, not a trace of a run.
   */
  async forgetUsedEndpoints(): Promise<void> {
    await this.memento.update(USED_ENDPOINTS, {});
    await this.memento.update(USED_ENDPOINTS_V1, undefined);
  }

  private async rememberUsed(endpointId: string): Promise<void> {
    const service = this.service();
    const list = [endpointId, ...this.usedEndpoints().filter((e) => e !== endpointId)].slice(0, MAX_USED);
    // The service moves to the end (most recent); the least recently used services beyond MAX_SERVICES go.
    const others = Object.entries(this.usedByService()).filter(([s]) => s !== service);
    await this.memento.update(USED_ENDPOINTS, Object.fromEntries([...others.slice(-(MAX_SERVICES - 1)), [service, list]]));
    if (this.memento.get(USED_ENDPOINTS_V1) !== undefined) await this.memento.update(USED_ENDPOINTS_V1, undefined);
  }

  private usedByService(): Record<string, unknown> {
    const v = this.memento.get<unknown>(USED_ENDPOINTS, {});
    // fromEntries: a service named "__proto__" stays data.
    return v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v)) : {};
  }
}
