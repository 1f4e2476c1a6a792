// The chart's three lines (SERIES) are the domain's progress-chart.ts, shared with the public reform page.
export const CHART_HEIGHT = 240;
