import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Spinner } from '@/components/ui/spinner';
import { useCustomer } from '@/features/customers/api/customers';
import { CustomerForm } from '@/features/customers/components/customer-form';
import { CustomerLedger } from '@/features/customers/components/customer-ledger';
import { CustomersPanel } from '@/features/customers/components/customers-panel';
import { isHttpError } from '@/lib/api-client';

const customerPath = (id: number) => `/admin/customers/${id}`;

/** /admin/customers (issue 23): the till's customers panel as a page; a saved or opened customer has its own address. */
export function AdminCustomersRoute() {
  const { t } = useTranslation('sale');
  const navigate = useNavigate();
  const open = (c: { id: number }) => void navigate(customerPath(c.id));
  return (
    <section className="stack" aria-labelledby="admin-customers-title">
      <h1 id="admin-customers-title">{t('customers.title')}</h1>
      <CustomersPanel onSaved={open} onHistory={open} />
    </section>
  );
}

/** /admin/customers/:id: the customer's details (the same form) and account (the same ledger as the till's dialog). */
export function AdminCustomerRoute() {
  const { t } = useTranslation(['admin', 'sale']);
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const customerId = /^\d+$/.test(id) ? Number(id) : null;
  const { data, error, isLoading } = useCustomer(customerId);
  const back = <Link to="/admin/customers">{t('admin:customers.back')}</Link>;
  if (customerId === null || isHttpError(error, 404)) {
    return <section className="stack">{back}<Alert>{t('admin:customers.notFound')}</Alert></section>;
  }
  if (isLoading || !data) return error ? <Alert>{error.message}</Alert> : <Spinner />;
  return (
    <section className="stack" aria-labelledby="admin-customer-title">
      {back}
      <h1 id="admin-customer-title">{data.name}</h1>
      <div className="customers-layout">
        <CustomerForm
          editing={data}
          onCancel={() => void navigate('/admin/customers')}
          onSaved={() => void client.invalidateQueries({ queryKey: ['customer', customerId] })}
        />
        <div className="stack grow">
          <h2>{t('sale:customers.paymentHistory', { name: data.name })}</h2>
          <CustomerLedger customer={data} />
        </div>
      </div>
    </section>
  );
}
