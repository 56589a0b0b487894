// What the endpoint picker's Enter means, as plain data (no `vscode` import, so plain Node tests can check it).
// The picker's rows live in the window's renderer and are replaced from the extension host on each keystroke
// (a typed id that matches no row gets a row of its own), so at Enter the selected/active row the host sees
// can belong to the list before the last keystroke: the real-editor test typed 'echo' and got 'wan-2-1-video'.
// The typed text is never stale (onDidChangeValue reaches the host before onDidAccept), so it decides first.

import { checkId } from '../core/ids';

/** A row of the picker, as far as choosing is concerned. */
export interface EndpointRow {
  label: string;
  description?: string;
  /** Absent on the row of a typed id that cannot be one (it shows the problem instead). */
  endpointId?: string;
}

/** An endpoint id goes into the URL path (SPEC 4.2): refuse what could not be one (the core's rule, issue 12). */
export function checkEndpointId(id: string): string | undefined {
  const v = id.trim();
  if (!v) return 'Type an endpoint id';
  return checkId(v, 'endpoint');
}

/**
 * The endpoint id Enter picks, or undefined to keep the picker open (an invalid typed id). In order:
 * a row whose id is exactly what was typed; else the one row whose name it is; else the chosen row if the typed filter shows it (the user
 * filtered, then moved to it with the arrow keys); else the typed id itself when it can be one.
 * With nothing typed, the chosen row.
 */
export function acceptedEndpointId(typed: string, chosen: EndpointRow | undefined, rows: readonly EndpointRow[]): string | undefined {
  const value = typed.trim();
  if (!value) return chosen?.endpointId;
  if (rows.some((row) => row.endpointId === value)) return value;
  const named = rowNamed(value, rows);
  if (named) return named;
  if (chosen?.endpointId !== undefined && shownFor(chosen, value)) return chosen.endpointId;
  return checkEndpointId(value) === undefined ? value : undefined;
}

/**
 * The id of the one row labelled exactly `typed`: rows show endpoints by their name, so a typed name means
 * that endpoint, never a new id spelled like the name. Names are not unique: two rows of that name pick none.
 */
export function rowNamed(typed: string, rows: readonly EndpointRow[]): string | undefined {
  const named = rows.filter((row) => row.endpointId !== undefined && row.label === typed.trim());
  return named.length === 1 ? named[0]!.endpointId : undefined;
}

/**
 * Whether the quick pick would show the row for this filter. VS Code matches the label (and the description:
 * the picker sets matchOnDescription) fuzzily; "its letters in order" accepts everything it shows, so a row
 * reached with the arrow keys is always honoured.
 */
function shownFor(row: EndpointRow, filter: string): boolean {
  const letters = filter.toLowerCase().replace(/\s+/g, '');
  return [row.label, row.description, row.endpointId].some((text) => text !== undefined && inOrder(letters, text.toLowerCase()));
}

function inOrder(letters: string, text: string): boolean {
  let at = 0;
  for (const ch of letters) {
    at = text.indexOf(ch, at);
    if (at < 0) return false;
    at++;
  }
  return true;
}
