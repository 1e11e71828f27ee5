import { useState } from 'react';
import { BarElement, CategoryScale, Chart as ChartJS, LinearScale, Tooltip } from 'chart.js';
import { Bar } from 'react-chartjs-2';
import { minorToDecimal } from '@pos/domain/money';
import type { Money } from '@/lib/money';
import type { ReportRow } from '../api/reports.ts';

// Only what this chart uses: keeps the chart.js part of this lazy chunk small.
ChartJS.register(BarElement, CategoryScale, LinearScale, Tooltip);

export interface SalesChartProps {
  title: string;
  rows: readonly ReportRow[];
  money: Money;
  /** Right-to-left: the first bar on the right. */
  rtl?: boolean;
}

/** Gross sales per day or hour as bars, in the report's currency (chart.js, loaded only with this chart). */
/** Whether this browser can draw on a canvas (chart.js cannot without a 2D context: jsdom, some locked-down browsers). */
function canvasWorks(): boolean {
  try {
    return !!document.createElement('canvas').getContext('2d');
  } catch {
    return false;
  }
}

export default function SalesChart({ title, rows, money, rtl = false }: SalesChartProps) {
  const [drawable] = useState(canvasWorks);
  const asMoney = (v: number | string) => money.formatMinor(Math.round(Number(v) * 10 ** money.digits));
  const data = {
    labels: rows.map((r) => r.label),
    datasets: [{ label: title, data: rows.map((r) => minorToDecimal(Number(r.gross ?? 0), money.digits)), backgroundColor: '#2563eb' }],
  };
  if (!drawable) {
    // No canvas: the caption stays and the table below carries the same figures.
    return <figure className="report-chart report-chart-empty" data-testid="report-chart" role="img" aria-label={title}><figcaption>{title}</figcaption></figure>;
  }
  return (
    <figure className="report-chart" data-testid="report-chart">
      <figcaption>{title}</figcaption>
      <Bar
        data={data}
        aria-label={title}
        role="img"
        options={{
          responsive: true, maintainAspectRatio: false, animation: false,
          plugins: { tooltip: { rtl, callbacks: { label: (ctx) => asMoney(ctx.raw as number) } } },
          scales: { x: { reverse: rtl }, y: { position: rtl ? 'right' : 'left', ticks: { callback: (v) => asMoney(v) } } },
        }}
      />
    </figure>
  );
}
