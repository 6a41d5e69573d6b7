/**
 * The parts of ECharts the console draws (funnel, line and bar charts: the funnel and ROI pages), registered on
 * `echarts/core` so the bundle carries only these. Loaded with import() by <EChart>: only pages with a chart
 * fetch it.
 */
import { BarChart, FunnelChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

echarts.use([
  BarChart,
  FunnelChart,
  LineChart,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  CanvasRenderer,
]);

export { echarts };
