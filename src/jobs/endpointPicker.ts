// The endpoint quick pick of "Run Job…" and "Change endpoint": the endpoints the sidebar knows (billing
// records and the ones the user added), the ones used in this workspace, and whatever id the user types
// (public model ids count, SPEC 4.4). Each row reads as the sidebar shows the endpoint (issue 32): its name as the
// label, its id first in the description, then what it is, "your endpoint" or "public model": the demo's own
// `flux-dev` and the public `black-forest-labs-flux-1-dev` are both named "FLUX.1 dev", and only those words
// told them apart.
import * as vscode from 'vscode';
import { acceptedEndpointId, checkEndpointId, rowNamed } from './endpointChoice';
import { PUBLIC_MODELS, publicModel } from '../core/serverless/publicModels';

export interface KnownEndpoint {
  id: string;
  label?: string;
  description?: string;
}

/** Where endpoint names come from besides our own memory (the sidebar's tree, when it is there). */
export type EndpointSource = () => KnownEndpoint[] | Promise<KnownEndpoint[]>;

interface Item extends vscode.QuickPickItem {
  endpointId?: string;
}

export async function pickEndpoint(options: {
  title: string;
  current?: string;
  used: string[];
  sources: EndpointSource[];
}): Promise<string | undefined> {
  const known = new Map<string, KnownEndpoint>();
  for (const source of options.sources) {
    try {
      for (const e of await source()) if (!known.has(e.id)) known.set(e.id, e);
    } catch {
      // A source that fails (no key, offline) only means fewer suggestions.
    }
  }
  const items: Item[] = [];
  const seen = new Set<string>();
  const add = (id: string, what: string, more: Array<string | undefined>, label?: string): void => {
    if (seen.has(id)) return;
    seen.add(id);
    items.push({
      label: label && label !== id ? `${label}` : id,
      description: [label && label !== id ? id : undefined, what, id === options.current ? 'current' : undefined, ...more].filter(Boolean).join(' · '),
      endpointId: id,
    });
  };
  const own = (id: string): boolean => !publicModel(id);
  const used = (id: string): string | undefined => (options.used.includes(id) ? 'used here' : undefined);
  // The account's own endpoints: the sidebar's (with their names), then ids only used or typed here.
  const ordered = [...new Set([...(options.current ? [options.current] : []), ...options.used, ...known.keys()])].filter(own);
  for (const id of ordered) {
    const e = known.get(id);
    add(id, e ? 'your endpoint' : 'endpoint', [used(id), e?.description], e?.label);
  }
  // The platform's public models in a group of their own, always offered: picked, never typed (issue 22).
  items.push({ label: 'Public models', kind: vscode.QuickPickItemKind.Separator });
  for (const m of PUBLIC_MODELS) add(m.id, 'public model', [m.kind, m.price, used(m.id)], m.name);

  const qp = vscode.window.createQuickPick<Item>();
  qp.title = options.title;
  qp.placeholder = 'Pick an endpoint, or type an endpoint id (a public model id works too)';
  qp.matchOnDescription = true;
  const base = items;
  qp.items = base;
  qp.onDidChangeValue((value) => {
    const typed = value.trim();
    // A typed id or name of a listed endpoint shows that row (or the rows of that name), not a row offering it
    // as a new id.
    if (!typed || seen.has(typed) || rowNamed(typed, base) || base.some((row) => row.endpointId !== undefined && row.label === typed)) {
      qp.items = base;
      return;
    }
    const problem = checkEndpointId(typed);
    const custom: Item = problem
      ? { label: typed, description: problem, alwaysShow: true }
      : { label: typed, description: 'use this endpoint id', endpointId: typed, alwaysShow: true };
    qp.items = [custom, ...base];
  });
  return new Promise<string | undefined>((resolve) => {
    let done = false;
    qp.onDidAccept(() => {
      // The typed text first: the selected/active row may still be one of the rows before the last keystroke.
      const endpointId = acceptedEndpointId(qp.value, qp.selectedItems[0] ?? qp.activeItems[0], base);
      if (!endpointId) return; // an invalid typed id: keep the picker open
      done = true;
      resolve(endpointId);
      qp.hide();
    });
    qp.onDidHide(() => {
      if (!done) resolve(undefined);
      qp.dispose();
    });
    qp.show();
  });
}

/**
 * Running a file on an endpoint other than its remembered one: this run only (the first row, the default), or
 * remember the new one for the file. Undefined when the question was dismissed (nothing runs).
 */
export async function askRememberEndpoint(file: string, endpoint: string, remembered: string): Promise<boolean | undefined> {
  const once = { label: `Run on ${endpoint} this time only`, description: `${file} stays on ${remembered}`, keep: false };
  const keep = { label: `Run on ${endpoint} and remember it for ${file}`, description: `instead of ${remembered}`, keep: true };
  const chosen = await vscode.window.showQuickPick([once, keep], { title: `${file} runs on ${remembered}`, placeHolder: 'Remember the new endpoint for this file?' });
  return chosen?.keep;
}
