// What the runner remembers per workspace: the endpoint chosen for each input file (so "Run" needs no
// question the second time) and the last input sent to each endpoint (offered by "Run Job…"). Kept in
// workspaceState: it is about this workspace's files, and must survive a restart.
import type * as vscode from 'vscode';
import { isValidId } from '../core/ids';
import type { JobInput } from '../core/schemas';

const FILE_ENDPOINTS = 'serverlessGpu.fileEndpoints.v1';
const LAST_INPUTS = 'serverlessGpu.lastInputs.v1';
const USED_ENDPOINTS = 'serverlessGpu.usedEndpoints.v1';

export interface LastInput {
  input: JobInput;
  inputFile?: string;
  at: number;
}

export class EndpointMemory {
  constructor(private readonly memento: vscode.Memento) {}

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

  /** Endpoints used here, most recent first. */
  usedEndpoints(): string[] {
    const v = this.memento.get<unknown>(USED_ENDPOINTS, []);
    return Array.isArray(v) ? v.filter((x): x is string => isValidId(x, 'endpoint')) : [];
  }

  /**
   * Forgets which endpoints were used here (Clear Job History does it with the history: both say what was run
   * in this workspace). The endpoint chosen per file stays: it is a setting of the file, not a trace of a run.
   */
  async forgetUsedEndpoints(): Promise<void> {
    await this.memento.update(USED_ENDPOINTS, []);
  }

  private async rememberUsed(endpointId: string): Promise<void> {
    const list = [endpointId, ...this.usedEndpoints().filter((e) => e !== endpointId)].slice(0, 30);
    await this.memento.update(USED_ENDPOINTS, list);
  }
}
