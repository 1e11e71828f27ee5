import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@pos/domain/format';
import { useMoney } from '@/lib/money';

/**
 * The static demo dashboard of the admin shell (spec 2.1: "static demo"; the reference's was a
 * template). Nothing here is fetched: the figures are fixed sample data, formatted in the current
 * language (spec 9: US dollars with at most one fraction digit, dd-MM-yyyy hh:mm a).
 */
const CARDS = [
  { id: 'sales', value: 1245050, money: true },
  { id: 'orders', value: 326, money: false },
  { id: 'customers', value: 84, money: false },
  { id: 'average', value: 3819, money: true },
] as const;

const WEEK = [420, 515, 380, 610, 720, 905, 560]; // sample sales per day, in dollars, Monday first

const ORDERS = [
  { number: 1042, customer: 'walkIn', at: '2024-05-02T09:15:00Z', cents: 6770, status: 'completed' },
  { number: 1041, customer: 'sara', at: '2024-05-02T08:40:00Z', cents: 12500, status: 'completed' },
  { number: 1040, customer: 'omar', at: '2024-05-01T17:05:00Z', cents: 4350, status: 'onHold' },
  { number: 1039, customer: 'walkIn', at: '2024-05-01T15:22:00Z', cents: 2100, status: 'returned' },
  { number: 1038, customer: 'lina', at: '2024-05-01T11:48:00Z', cents: 9900, status: 'completed' },
] as const;

export function DemoDashboard() {
  const currency = useMoney();
  const { t, i18n } = useTranslation('admin');
  const lng = i18n.resolvedLanguage ?? 'en';
  const count = new Intl.NumberFormat(lng);
  // Monday 2024-04-29 onwards: weekday names in the page's language.
  const weekday = new Intl.DateTimeFormat(lng, { weekday: 'short', timeZone: 'UTC' });
  const top = Math.max(...WEEK);
  return (
    <div className="stack admin-dashboard">
      <p className="text-muted">{t('dashboard.demoNote')}</p>
      <section className="admin-cards" aria-label={t('dashboard.summary')}>
        {CARDS.map((card) => (
          <div key={card.id} className="admin-card">
            <span className="text-muted">{t(`dashboard.cards.${card.id}`)}</span>
            <strong>{card.money ? currency.format(card.value) : count.format(card.value)}</strong>
          </div>
        ))}
      </section>
      <section className="admin-panel" aria-labelledby="admin-week-title">
        <h2 id="admin-week-title">{t('dashboard.week')}</h2>
        <ol className="admin-bars">
          {WEEK.map((dollars, i) => (
            <li key={i}>
              <span className="admin-bar" style={{ blockSize: `${Math.round((dollars / top) * 100)}%` }} title={currency.format(dollars * 100)} />
              <span className="admin-bar-label">{weekday.format(Date.UTC(2024, 3, 29 + i))}</span>
            </li>
          ))}
        </ol>
      </section>
      <section className="admin-panel" aria-labelledby="admin-orders-title">
        <h2 id="admin-orders-title">{t('dashboard.recentOrders')}</h2>
        <div className="admin-table-wrap">
          <table className="data-table admin-table">
            <thead>
              <tr>
                <th scope="col">{t('dashboard.columns.order')}</th>
                <th scope="col">{t('dashboard.columns.customer')}</th>
                <th scope="col">{t('dashboard.columns.date')}</th>
                <th scope="col" className="num">{t('dashboard.columns.amount')}</th>
                <th scope="col">{t('dashboard.columns.status')}</th>
              </tr>
            </thead>
            <tbody>
              {ORDERS.map((o) => (
                <tr key={o.number}>
                  <td>{o.number}</td>
                  <td>{t(`dashboard.customers.${o.customer}`)}</td>
                  <td>{formatDateTime(o.at, 'UTC', lng)}</td>
                  <td className="num">{currency.format(o.cents)}</td>
                  <td><span className={`admin-status admin-status-${o.status}`}>{t(`dashboard.statuses.${o.status}`)}</span></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </div>
  );
}
