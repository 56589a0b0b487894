// Entry point: wires the features together. No network and no heavy work here (DEVELOPERS.md).
import * as vscode from 'vscode';

export function activate(context: vscode.ExtensionContext): void {
  void context;
}

export function deactivate(): void {}
