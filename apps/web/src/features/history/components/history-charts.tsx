import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ArcElement, BarElement, CategoryScale, Chart as ChartJS, Legend, LinearScale, Tooltip } from 'chart.js';
import { Bar, Pie } from 'react-chartjs-2';
import { formatDate } from '@pos/domain/format';
import { minorToDecimal } from '@pos/domain/money';
import { useMoney } from '@/lib/money';
import { paymentKindName } from '@/lib/payment-type-name';
import { totalsBy, wireAmount } from '../lib/summary.ts';
import type { HistoryOrder } from '../lib/types.ts';

// Only what these charts use: keeps the chart.js part of this lazy chunk small.
ChartJS.register(ArcElement, BarElement, CategoryScale, LinearScale, Tooltip, Legend);

const COLORS = ['#2563eb', '#16a34a', '#f59e0b', '#dc2626', '#7c3aed', '#0891b2', '#db2777', '#65a30d', '#ea580c', '#475569'];

export interface HistoryChartsProps {
  orders: readonly HistoryOrder[];
  /** Sales per payment kind over the whole range (the list's `payments`). */
  payments: Readonly<Record<string, number | string>>;
}

/** Rows in minor units -> a chart series in major units of the currency (exact decimals: KWD 1.275). */
function series(label: string, rows: Array<[string, number]>, digits: number) {
  return {
    labels: rows.map(([k]) => k),
    datasets: [{ label, data: rows.map(([, v]) => minorToDecimal(v, digits)), backgroundColor: rows.map((_, i) => COLORS[i % COLORS.length]) }],
  };
}

/** Payment types, sales, customers, stores and terminals (chart.js, loaded only with the history dialog). */
export default function HistoryCharts({ orders, payments }: HistoryChartsProps) {
  const { t } = useTranslation('backoffice');
  const money = useMoney();
  const charts = useMemo(() => {
    const digits = money.digits;
    const pay: Array<[string, number]> = Object.entries(payments).map(([k, v]) => [paymentKindName(k, t), wireAmount(v, digits)]);
    return [
      { id: 'payments', title: t('history.charts.paymentTypes'), kind: 'pie' as const, data: series(t('history.total'), pay, digits) },
      // Days in the store's time zone (issue 19).
      { id: 'sales', title: t('history.charts.sales'), kind: 'bar' as const, data: series(t('history.total'), totalsBy(orders, (o) => formatDate(o.createdAt, money.timeZone), digits), digits) },
      {
        id: 'customers',
        title: t('history.charts.customers'),
        kind: 'bar' as const,
        data: series(t('history.total'), totalsBy(orders, (o) => o.customer?.name || o.customerName || t('history.cashCustomer'), digits), digits),
      },
      { id: 'stores', title: t('history.charts.stores'), kind: 'bar' as const, data: series(t('history.total'), totalsBy(orders, (o) => o.store?.name ?? '—', digits), digits) },
      { id: 'terminals', title: t('history.charts.terminals'), kind: 'bar' as const, data: series(t('history.total'), totalsBy(orders, (o) => o.terminal?.code ?? '—', digits), digits) },
    ];
  }, [orders, payments, t, money.timeZone, money.digits]);
  // Tooltips and the value axis in the store's currency and digits (the charts carry major units;
  // a tick such as 2.5 is read back exactly as a decimal, to the currency's digits).
  const asMoney = (v: number | string) => money.formatMinor(wireAmount(v, money.digits));
  const tooltip = { callbacks: { label: (ctx: { dataset: { label?: string }; raw: unknown }) => `${ctx.dataset.label ?? ''}: ${asMoney(ctx.raw as number)}` } };
  return (
    <div className="history-charts">
      {charts.map((c) => (
        <figure key={c.id} className="chart-card" data-testid={`chart-${c.id}`}>
          <figcaption>{c.title}</figcaption>
          {c.kind === 'pie' ? (
            <Pie data={c.data} options={{ responsive: true, maintainAspectRatio: false, animation: false, plugins: { tooltip } }} aria-label={c.title} role="img" />
          ) : (
            <Bar data={c.data} options={{ responsive: true, maintainAspectRatio: false, animation: false, plugins: { legend: { display: false }, tooltip }, scales: { y: { ticks: { callback: (v) => asMoney(v) } } } }} aria-label={c.title} role="img" />
          )}
        </figure>
      ))}
    </div>
  );
}
