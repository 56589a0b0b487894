// The cost chart's webview type, apart from its panel: the serializer is registered at activation, while the
// panel itself (costChartPanel.ts) is in dist/rooms.js, loaded when a chart is first shown or restored.
export const COST_CHART_VIEW_TYPE = 'serverlessGpu.costChart';
