// An in-memory Memento for tests that need a history or runner of their own: disposing them (what closing the
// window does) must not touch the extension's workspaceState. Values go through JSON, as VS Code's do.
import type * as vscode from 'vscode';

export function memoryMemento(): vscode.Memento {
  const stored = new Map<string, unknown>();
  return {
    keys: () => [...stored.keys()],
    get: <T>(key: string, fallback?: T) => (stored.has(key) ? (stored.get(key) as T) : fallback) as T,
    // As VS Code's: `undefined` removes the key.
    update: async (key: string, value: unknown) => {
      if (value === undefined) stored.delete(key);
      else stored.set(key, JSON.parse(JSON.stringify(value)) as unknown);
    },
  };
}
