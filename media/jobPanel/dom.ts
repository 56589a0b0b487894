// The job panel's DOM helpers: text only, never markup; sources only from the webview's own resource origin.
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

export function button(label: string, onClick: () => void, opts: { secondary?: boolean; title?: string; action?: string } = {}): HTMLButtonElement {
  const b = el('button', opts.secondary ? 'secondary' : undefined, label);
  b.type = 'button';
  if (opts.title) b.title = opts.title;
  if (opts.action) b.dataset['action'] = opts.action;
  b.addEventListener('click', onClick);
  return b;
}

/**
 * Only URIs of the webview's own resource origin are used as sources: the host turns saved local files into
 * them with asWebviewUri. Anything else (a remote host, javascript:, data:) is never put into a src.
 */
export function isLocalResource(src: string | undefined): src is string {
  if (!src) return false;
  try {
    const u = new URL(src);
    return u.protocol === 'https:' && (u.hostname.endsWith('.vscode-resource.vscode-cdn.net') || u.host === location.host);
  } catch {
    return false;
  }
}

