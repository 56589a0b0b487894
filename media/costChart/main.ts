// The cost chart webview: a stacked bar chart (GPU, CPU, disk, fee) per bucket, drawn by Chart.js bundled
// with the extension (only the bar chart's parts are registered, so the rest is tree-shaken away). Colours
// come from VS Code's theme (--vscode-* variables); text from the host is set with textContent only.
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip, type Plugin, type TooltipItem } from 'chart.js';
import { ChartState, FromWebview, ToWebview, type ChartData } from '../../src/costChart/protocol';
import { formatUsd, formatUsdGroup } from '../../src/core/billing/usd';
import { vscode } from '../../src/webview/vscodeApi';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip, Legend);

const titleEl = document.getElementById('title') as HTMLElement;
const subtitleEl = document.getElementById('subtitle') as HTMLElement;
const noticeEl = document.getElementById('notice') as HTMLElement;
const canvas = document.getElementById('chart') as HTMLCanvasElement;
let chart: Chart<'bar', number[], string> | undefined;
let lastHover = '';

/** Reports the hover box's text to the host each time it changes (what the user reads, exact amounts). */
const reportHover: Plugin<'bar'> = {
  id: 'reportHover',
  afterTooltipDraw(_chart, args) {
    const t = args.tooltip;
    const message = { type: 'hover' as const, title: t.title ?? [], lines: t.body.flatMap((b) => b.lines), footer: t.footer ?? [] };
    const key = JSON.stringify(message);
    if (key === lastHover) return;
    lastHover = key;
    send(message);
  },
};

function send(message: FromWebview): void {
  vscode.postMessage(FromWebview.parse(message));
}

function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

function loadState(): ChartState {
  const parsed = ChartState.safeParse(vscode.getState());
  return parsed.success ? parsed.data : {};
}

function draw(data: ChartData): void {
  titleEl.textContent = data.title;
  subtitleEl.textContent = data.subtitle;
  noticeEl.textContent = data.labels.length ? '' : 'No usage in this window.';
  noticeEl.hidden = data.labels.length > 0;
  const fg = cssVar('--vscode-foreground', '#cccccc');
  const grid = cssVar('--vscode-charts-lines', 'rgba(128,128,128,0.3)');
  const series: [string, number[], string][] = [
    ['GPU', data.gpu, cssVar('--vscode-charts-blue', '#3794ff')],
    ['CPU', data.cpu, cssVar('--vscode-charts-green', '#89d185')],
    ['Disk', data.disk, cssVar('--vscode-charts-yellow', '#cca700')],
    ['Fee', data.fee, cssVar('--vscode-charts-purple', '#b180d7')],
  ];
  // The account's chart stacks each endpoint's total instead of the four cost components.
  const palette = ['blue', 'green', 'yellow', 'purple', 'orange', 'red', 'foreground'].map((c, i) => cssVar(`--vscode-charts-${c}`, ['#3794ff', '#89d185', '#cca700', '#b180d7', '#d18616', '#f14c4c', '#cccccc'][i]!));
  const stacks: [string, number[], string][] = data.byEndpoint
    ? data.byEndpoint.map((e, i) => [e.label, e.values, palette[i % palette.length]!])
    : series;
  const bucketMoney = (i: number) => {
    const values = stacks.map(([, v]) => v[i] ?? 0);
    return formatUsdGroup(values.reduce((a, b) => a + b, 0), values);
  };
  const datasets = stacks.map(([label, values, color]) => ({ label, data: values, backgroundColor: color, borderWidth: 0, stack: 'cost' }));
  chart?.destroy();
  chart = new Chart(canvas, {
    type: 'bar',
    data: { labels: data.labels, datasets },
    plugins: [reportHover],
    options: {
      responsive: true,
      maintainAspectRatio: false,
      // No animation: the first frame is the final one, so "drawn" reports what is on screen.
      animation: false,
      // Hovering anywhere in a bucket's column shows its whole stack, not only the bar under the pointer.
      interaction: { mode: 'index', intersect: false },
      color: fg,
      font: { family: cssVar('--vscode-font-family', 'sans-serif') },
      scales: {
        x: { stacked: true, ticks: { color: fg }, grid: { color: grid } },
        y: { stacked: true, ticks: { color: fg, callback: (v) => formatUsd(Number(v)) }, grid: { color: grid } },
      },
      plugins: {
        legend: { labels: { color: fg } },
        tooltip: {
          callbacks: {
            title: (items: TooltipItem<'bar'>[]) => {
              const i = items[0]?.dataIndex ?? 0;
              return `${data.labels[i] ?? ''} (from ${data.ranges[i] ?? ''})`;
            },
            // A bucket's stack and its total in one precision, the parts adding up to the total shown.
            label: (item: TooltipItem<'bar'>) => `${item.dataset.label ?? ''}: ${bucketMoney(item.dataIndex).parts[item.datasetIndex] ?? ''}`,
            footer: (items: TooltipItem<'bar'>[]) => `Total: ${bucketMoney(items[0]?.dataIndex ?? 0).total}`,
          },
        },
      },
    },
  });
  const c = chart;
  send({
    type: 'drawn',
    bucketCount: c.data.labels?.length ?? 0,
    barsPerDataset: c.data.datasets.map((_, i) => c.getDatasetMeta(i).data.length),
    datasetLabels: c.data.datasets.map((d) => d.label ?? ''),
    total: c.data.datasets.reduce((sum, d) => sum + d.data.reduce((s, v) => s + (typeof v === 'number' ? v : 0), 0), 0),
  });
}

function notice(title: string, message: string): void {
  chart?.destroy();
  chart = undefined;
  titleEl.textContent = title;
  subtitleEl.textContent = '';
  noticeEl.textContent = message;
  noticeEl.hidden = false;
  send({ type: 'drawn', bucketCount: 0, barsPerDataset: [], datasetLabels: [], total: 0 });
}

function show(message: ToWebview): void {
  if (message.type === 'data') draw(message.data);
  else notice(message.title, message.message);
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const parsed = ToWebview.safeParse(event.data);
  if (!parsed.success) {
    send({ type: 'error', message: `invalid message from the extension: ${parsed.error.issues[0]?.message ?? 'invalid'}` });
    return;
  }
  const state = loadState();
  const shown = parsed.data.type === 'data' ? parsed.data.data : undefined;
  vscode.setState({ ...state, last: parsed.data, endpointId: shown ? shown.endpointId : state.endpointId, byEndpoint: shown ? shown.byEndpoint !== undefined : state.byEndpoint });
  try {
    show(parsed.data);
  } catch (e) {
    send({ type: 'error', message: e instanceof Error ? e.message : String(e) });
  }
});

// Redraw what was shown before the page was hidden or reloaded, then tell the host we are listening.
const previous = loadState().last;
if (previous) show(previous);
send({ type: 'ready' });
