// Issue 11: no network request until a view of ours is visible. A new profile or key while the Endpoints view
// is hidden sends nothing (the data shown before belongs to the old connection and is dropped); showing the
// view sends the billing request. A real server on 127.0.0.1 records every request it gets.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import type { SidebarTestApi } from '../../src/extension';
import { aBillingResponse } from '../unit/builders/billingResponse';
import { activateExtension, eventually } from './support/extension';
import { KEYS, resetSidebar, useTestProfile } from './sidebarFixtures';

suite('Endpoints view hidden', () => {
  let api: SidebarTestApi;
  let server: http.Server | undefined;
  const requests: string[] = [];

  suiteSetup(async () => {
    const ext = await activateExtension();
    api = (ext.exports as { sidebar: SidebarTestApi }).sidebar;
    const billing = JSON.stringify(aBillingResponse().withEndpoints(['hidden-a', 'hidden-b']).daily(30).build());
    server = http.createServer((req, res) => {
      requests.push(`${req.method} ${req.url?.split('?')[0]}`);
      if (req.url?.startsWith('/v2/billing/serverless')) res.writeHead(200, { 'content-type': 'application/json' }).end(billing);
      else res.writeHead(404, { 'content-type': 'application/problem+json' }).end('{"title":"Not Found","status":404,"detail":"no such route"}');
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  });

  suiteTeardown(async () => {
    await resetSidebar(api);
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  });

  test('a new profile and key while the view is hidden send nothing; showing the view sends the billing request', async () => {
    await vscode.commands.executeCommand('workbench.view.explorer');
    await eventually(() => api.endpoints!.view.visible === false || undefined, 'the Endpoints view to be hidden');
    const url = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
    await useTestProfile(api, url, 'Hidden view');
    await api.connection.setApiKey(KEYS.full);
    // No event marks "the extension decided not to send": give a refresh every chance to start.
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(requests.length, 0, `nothing is sent while no view of ours is visible, but: ${requests.join(', ')}`);
    assert.equal(api.endpoints!.tree.current.kind, 'idle', 'what was shown for the old connection is dropped');

    await vscode.commands.executeCommand('serverlessGpu.endpoints.focus');
    await eventually(() => api.endpoints!.tree.current.kind === 'loaded' || undefined, 'the tree to load once shown');
    assert.ok(requests.includes('GET /v2/billing/serverless'), requests.join(', '));
    const loaded = api.endpoints!.tree.loaded!;
    assert.deepEqual(loaded.model.endpoints.map((e) => e.id).sort(), ['hidden-a', 'hidden-b']);
  });
});
