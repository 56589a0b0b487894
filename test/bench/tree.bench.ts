// Endpoints tree figure (issue 4): the time from "Refresh" to every tree item being resolved, for 50
// endpoints over 365 daily buckets (18,250 records), served by a local HTTP server. The candidate is what the
// tree does on refresh: the client's billing call (fetch; then, on the billing worker thread of
// dist/billingWorker.js as in the extension, decoding, key scrub, JSON, validation, consistency check and
// aggregation into columns), the tree model (nodes, sorting), and the label and description of every endpoint and bucket item, as
// if every endpoint were expanded (what getTreeItem computes when each node is shown; tooltips wait for a
// hover). A second figure stops at the top level, which is what the view shows after a refresh. The baseline, in the same run and against the same
// server: a raw fetch + JSON.parse of the same response. The vscode TreeItem objects themselves are not built
// (no editor here); their constructors only copy these strings.
import * as esbuild from 'esbuild';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createServiceClient } from '../../src/core/http/client';
import { createWorkerBillingReader } from '../../src/core/billing/billingReader';
import { buildBillingTree } from '../../src/endpoints/billingTreeModel';
import { windowQuery } from '../../src/endpoints/billingWindow';
import { bucketText, endpointText } from '../../src/endpoints/itemText';
import { aBillingResponse } from '../unit/builders/billingResponse';
import type { BenchContext } from './context';

const KEY = 'bench-key-0123456789';

export default async function treeBench(ctx: BenchContext): Promise<void> {
  // The cost chart's webview script as the .vsix ships it (minified; Chart.js with only the bar chart's parts).
  const chartBundle = await esbuild.build({
    entryPoints: [join(ctx.root, 'media', 'costChart', 'main.ts')], bundle: true, minify: true, write: false,
    platform: 'browser', format: 'iife', target: 'es2022', logLevel: 'silent',
  });
  ctx.report('bundle.costChart.js', chartBundle.outputFiles[0]!.contents.byteLength, 'bytes');

  const response = aBillingResponse().withEndpoints(50).daily(365).startingAt('2025-01-01T00:00:00Z').build();
  const body = Buffer.from(JSON.stringify(response));
  ctx.log(`tree: ${response.records.length} records, ${(body.length / 1e6).toFixed(1)} MB`);
  const server = http.createServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${KEY}`) {
      res.writeHead(401, { 'content-type': 'application/problem+json' }).end('{"title":"Unauthorized","status":401,"detail":"no"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    // `npm run bench` builds first: this is the worker file the extension ships.
    const billingReader = createWorkerBillingReader(join(ctx.root, 'dist', 'billingWorker.js'), { warn: (m) => { throw new Error(m); } });
    const client = createServiceClient({ billingBaseUrl: base, jobsBaseUrl: base, apiKey: KEY }, { billingReader });
    const query = windowQuery({ kind: 'preset', preset: 'last30Days' });
    const url = `${base}/v2/billing/serverless?lastN=365&bucketSize=day`;

    const rawFetch = async () => {
      const res = await fetch(url, { headers: { authorization: `Bearer ${KEY}` } });
      return JSON.parse(await res.text()) as unknown;
    };
    let items = 0;
    const refresh = async () => {
      const result = await client.listBillingTable(query);
      const model = buildBillingTree(result.table, [{ id: 'added-endpoint', displayName: 'Added by hand' }]);
      items = 0;
      for (const e of model.endpoints) {
        endpointText(e);
        items++;
        for (const b of e.buckets) {
          bucketText(b);
          items++;
        }
      }
      return items;
    };
    const { baseline, candidate } = await ctx.compare(rawFetch, refresh, { iterations: 15, warmup: 3 });
    ctx.log(`tree: ${items} items resolved per refresh`);
    ctx.report('tree.items', items, 'items');
    ctx.report('tree.fetchJsonParse', baseline.medianMs, 'ms');
    ctx.report('tree.refreshToItems', candidate.medianMs, 'ms', { name: 'tree.fetchJsonParse', value: baseline.medianMs });

    const topLevel = async () => {
      const result = await client.listBillingTable(query);
      const model = buildBillingTree(result.table);
      return model.endpoints.map((e) => endpointText(e));
    };
    const top = await ctx.compare(rawFetch, topLevel, { iterations: 15, warmup: 3 });
    ctx.report('tree.fetchJsonParse.topLevelRuns', top.baseline.medianMs, 'ms');
    ctx.report('tree.refreshToTopLevel', top.candidate.medianMs, 'ms', { name: 'tree.fetchJsonParse.topLevelRuns', value: top.baseline.medianMs });

    // The part after the table has arrived: what the tree adds on top of the client (every endpoint's buckets).
    const result = await client.listBillingTable(query);
    const modelOnly = await ctx.timeIt(() => buildBillingTree(result.table).endpoints.map((e) => e.buckets.length), { iterations: 15, warmup: 3 });
    ctx.report('tree.modelOnly', modelOnly.medianMs, 'ms', { name: 'tree.fetchJsonParse', value: baseline.medianMs });
    billingReader.dispose();
  } finally {
    await new Promise<void>((r) => server.close(() => r()));
  }
}
