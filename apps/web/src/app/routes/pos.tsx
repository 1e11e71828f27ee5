import { Suspense, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { confirm } from '@/components/ui/confirm-dialog';
import { toast } from '@/components/ui/toast';
import { errorText } from '@/lib/form-errors';
import { useSession } from '@/lib/session';
import { LogoutButton } from '@/features/auth/components/logout-button';
import { TillUserMenu } from './till-user-menu';
import type { Customer, Order, Product, Variant } from '@/features/catalogue-cache/types';
import { useCatalogue } from '@/features/catalogue-cache/catalogue-store';
import { CatalogueProgress } from '@/features/catalogue-cache/components/catalogue-progress';
import { useCatalogueLoader } from '@/features/catalogue-cache/hooks/use-catalogue-loader';
import { NO_FACETS, type FacetSelection } from '@/features/catalogue-cache/product-index';
import { addToCart, emptyCart, moveActiveField, moveActiveLine, removeLine, setCustomer } from '@/features/cart/cart-logic';
import { loadOrder, type LoadKind } from '@/features/cart/load-order';
import { cartStore, tryUpdateCart, updateCart, useCart } from '@/features/cart/cart-store';
import type { CartDefaults } from '@/features/cart/cart-types';
import { CartTable } from '@/features/cart/components/cart-table';
import { removeQuestion } from '@/features/cart/components/line-text';
import { CartToolbar, type CartToolbarHandle } from '@/features/cart/components/cart-toolbar';
import { CartTotals } from '@/features/cart/components/cart-totals';
import { focusActiveCartField } from '@/features/cart/components/cart-focus';
import { ItemSearchDialog } from '@/features/item-search/components/item-search-dialog';
import { VariantChooser } from '@/features/item-search/components/variant-chooser';
import { HeldOrdersButton } from '@/features/orders/components/held-orders-button';
import { findOrder, getOrder } from '@/features/orders/api/find-order';
import { canRefund } from '@/features/orders/lib/refund-lines';
import { OutboxIndicator } from '@/features/outbox/components/outbox-indicator';
import { PaymentPanel, type PaymentPanelHandle } from '@/features/payment/components/payment-panel';
import { FacetFilters } from '@/features/sale/components/facet-filters';
import { PosScreen } from '@/features/sale/components/pos-screen';
import { PosToolbar, type ToolbarAction } from '@/features/sale/components/pos-toolbar';
import { NoSaleButton } from '@/features/receipt/components/no-sale-button';
import { setPreferences, usePreferences, type PosMode } from '@/features/sale/preferences-store';
import { getMoney } from '@/lib/money';
import { SHORTCUTS } from '@/features/shortcuts/shortcut-list';
import { useShortcuts } from '@/features/shortcuts/use-shortcuts';
import { useOpened } from '@/lib/use-opened';
import { BackOfficeDialogs, CustomerPaymentsDialog, CustomersDialog, type DialogId, DiscountsDialog, HelpModal, ItemDetailDialog, ModeSelectorDialog, OrderDetailDialog, OrderLookupDialog, ReceiptPreviewDialog, RefundDialog, RunningOrdersScreen, TaxesDialog } from './pos-dialogs';
import { CartCustomerNameBox, CartSearchBar } from './pos-cart-boxes';
import { GridToggle, PosProductGrid } from './pos-product-grid';
import { usePosScan } from './use-pos-scan';
import { useUnsuspend } from './use-unsuspend';
import { TillAnnouncer } from '@/features/announcer/live-region';
import { announceSale } from '@/features/announcer/use-till-announcements';

/** /pos: the till. Composes the sale, cart, payment, search, customers, orders, receipt, running-orders, help and shortcut features. */
export function PosRoute() {
  const { t, i18n } = useTranslation('sale');
  const locale = i18n.resolvedLanguage ?? 'en';
  const { store, terminal } = useSession();
  const storeId = store?.id ?? null;
  const terminalId = terminal?.id ?? null;
  const prefs = usePreferences((p) => p);
  const defaults = useMemo<CartDefaults>(
    () => ({ tax: prefs.defaultTax, discount: prefs.defaultDiscount, paymentType: prefs.defaultPaymentType }),
    [prefs.defaultTax, prefs.defaultDiscount, prefs.defaultPaymentType],
  );

  useCatalogueLoader();
  // The table the search index and facets are built from (its index columns): it changes when names,
  // prices, stores or groupings change, not for a stock-only delta (current objects are in byId).
  // Deferred: the till paints a new catalogue (scannable at once) before the store filter, the
  // facets and the search records of 100,000 products are rebuilt in a background render.
  const indexedNow = useCatalogue((s) => s.indexed);
  const indexVersionNow = useCatalogue((s) => s.indexVersion);
  const current = useMemo(() => ({ table: indexedNow, version: indexVersionNow }), [indexedNow, indexVersionNow]);
  const { table, version } = useDeferredValue(current);
  const taxes = useCatalogue((s) => s.catalogue.taxes);
  const discounts = useCatalogue((s) => s.catalogue.discounts);
  const paymentTypes = useCatalogue((s) => s.catalogue.paymentTypes);
  const settings = useCatalogue((s) => s.catalogue.settings);
  const byId = useCatalogue((s) => s.byId);

  // What this till may sell: the store's and terminal's products (positions in the table's columns;
  // indexes built once per load, no product decoded for them).
  const visible = useMemo(() => table.visibleAt(storeId, terminalId), [table, storeId, terminalId]);
  const facets = useMemo(() => table.facets(visible), [table, visible]);
  // The search worker gets the table's own columns and these positions, and builds its records itself.
  const searchSource = useMemo(() => {
    const { ids, names, barcodes, prices, brands, categories, departments } = table.index;
    return { size: visible.length, columns: () => ({ positions: visible, ids, names, barcodes, prices, brands, categories, departments }) };
  }, [table, visible]);
  const searchVersion = `${version}:${storeId}:${terminalId}`;
  const [facetSel, setFacetSel] = useState<FacetSelection>(NO_FACETS);

  const customer = useCart((s) => s.customer);
  const cartOrderId = useCart((s) => s.orderId);

  const [dialog, setDialog] = useState<DialogId | null>(null);
  const [chooser, setChooser] = useState<{ product: Product; qtyMilli: number } | null>(null);
  const [detailProduct, setDetailProduct] = useState<Product | null>(null);
  const [detailOrder, setDetailOrder] = useState<Order | null>(null);
  const [refundOrder, setRefundOrder] = useState<Order | null>(null);
  const [receipt, setReceipt] = useState<{ order: Order; auto: boolean } | null>(null);
  const [historyCustomer, setHistoryCustomer] = useState<Customer | null>(null);
  const opened = {
    detailProduct: useOpened(detailProduct !== null),
    taxes: useOpened(dialog === 'taxes'),
    discounts: useOpened(dialog === 'discounts'),
    customers: useOpened(dialog === 'customers'),
    historyCustomer: useOpened(historyCustomer !== null),
    help: useOpened(dialog === 'help'),
    mode: useOpened(dialog === 'mode'),
    lookup: useOpened(dialog === 'lookup'),
    detailOrder: useOpened(detailOrder !== null),
    refundOrder: useOpened(refundOrder !== null),
    receipt: useOpened(receipt !== null),
  };
  const [lookupIntent, setLookupIntent] = useState<'view' | 'refund' | 'reorder'>('view');
  const searchRef = useRef<HTMLInputElement>(null);
  const payment = useRef<PaymentPanelHandle>(null);
  const cartTools = useRef<CartToolbarHandle>(null);
  const heldList = useRef<{ open(): void }>(null);
  const [params, setParams] = useSearchParams();
  const close = useCallback(() => setDialog(null), []);
  const queryClient = useQueryClient();
  // A saved sale moves stock and order lists: ask again.
  const afterSave = useCallback(() => {
    for (const key of ['stock', 'running-orders', 'held-orders', 'customers', 'customer']) void queryClient.invalidateQueries({ queryKey: [key] });
  }, [queryClient]);

  // /settings lands here with ?settings=1.
  useEffect(() => {
    if (params.get('settings')) {
      setDialog('settings');
      params.delete('settings');
      setParams(params, { replace: true });
    }
  }, [params, setParams]);

  // An empty cart carries the cashier's defaults (also after a reload: the reference lost them).
  useEffect(() => {
    const s = cartStore.get();
    if (s.added.length === 0 && !s.tax && !s.discount && !s.paymentType && (defaults.tax || defaults.discount || defaults.paymentType)) {
      cartStore.set({ ...s, tax: defaults.tax, discount: defaults.discount, paymentType: defaults.paymentType });
    }
  }, [defaults]);

  const focusSearch = () => searchRef.current?.focus();
  const { scan, scanning, pick } = usePosScan({ storeId, terminalId, facetSel, focusSearch, onChooseVariant: setChooser });

  const addProduct = useCallback((product: Product, variant: Variant | null, qtyMilli: number, priceCents: number | null = null) => {
    const error = tryUpdateCart((s) => addToCart(s, { product, variant, qtyMilli, priceCents, timeZone: getMoney().timeZone }));
    if (error) toast.error(t('messages.quantityBelowOne'));
  }, [t]);

  /** Adds from the search list or a scan: items with variants open the chooser first. */
  const addOrChoose = useCallback((product: Product, qtyMilli: number) => {
    if (product.variants?.length) setChooser({ product, qtyMilli });
    else addProduct(product, null, qtyMilli);
  }, [addProduct]);

  const addOne = useCallback((product: Product) => addOrChoose(product, 1000), [addOrChoose]);
  const showGrid = prefs.productGrid ?? prefs.enableTouch;

  const load = useCallback((order: Order, kind: LoadKind) => {
    cartStore.set(loadOrder(order, kind, defaults));
  }, [defaults]);

  const refundable = (order: Order) => {
    if (!canRefund(order)) {
      toast.error(t('messages.notRefundable', { number: order.orderId ?? order.id, status: order.status }));
      return false;
    }
    return true;
  };

  const refundFromHistory = async (id: number) => {
    try {
      const { order } = await getOrder(id);
      if (refundable(order)) setRefundOrder(order);
    } catch (error) {
      toast.error(errorText(error));
    }
  };

  const loadByNumber = async (text: string, kind: 'refund' | 'reorder') => {
    if (!text.trim()) {
      setLookupIntent(kind);
      setDialog('lookup');
      return;
    }
    try {
      const order = await findOrder(text, storeId);
      if (!order) {
        toast.error(t('messages.orderNotFound'), { title: t('messages.notFoundTitle') });
        return;
      }
      if (kind === 'refund') {
        // Read in full (refundable quantities, stored amounts: the refund is priced from them).
        const full = (await getOrder(order.id)).order;
        if (refundable(full)) setRefundOrder(full);
        return;
      }
      load(order, kind);
    } catch (error) {
      toast.error(errorText(error));
    }
  };

  const unsuspend = useUnsuspend(defaults);

  const changeMode = (m: PosMode) => {
    setPreferences({ defaultMode: m });
    cartStore.set(emptyCart(defaults));
  };

  const removeActive = async () => {
    const s = cartStore.get();
    const line = s.added[s.selected];
    if (!line) return;
    if (await confirm(removeQuestion(t, [line]), { danger: true })) updateCart((x) => removeLine(x, x.selected));
  };

  useShortcuts(
    {
      help: () => setDialog('help'),
      focusSearch,
      focusSearchF3: focusSearch,
      itemSearch: () => setDialog('itemSearch'),
      previousLine: () => { updateCart((s) => moveActiveLine(s, -1)); focusActiveCartField(); },
      nextLine: () => { updateCart((s) => moveActiveLine(s, 1)); focusActiveCartField(); },
      previousField: () => { updateCart((s) => moveActiveField(s, -1)); focusActiveCartField(); },
      nextField: () => { updateCart((s) => moveActiveField(s, 1)); focusActiveCartField(); },
      removeLine: () => void removeActive(),
      focusPayment: () => payment.current?.focusPayment(),
      settle: () => payment.current?.settle(),
      exactCash: () => payment.current?.exactCash(),
      clear: () => payment.current?.clear(),
      expenses: () => setDialog('expenses'),
      history: () => setDialog('history'),
      taxes: () => setDialog('taxes'),
      discounts: () => setDialog('discounts'),
      customers: () => setDialog('customers'),
      paymentType: (index) => payment.current?.selectType(index ?? 0),
      quantity: () => cartTools.current?.open('quantity'),
      lineDiscount: () => cartTools.current?.open('discount'),
      hold: () => payment.current?.hold(),
      recall: () => heldList.current?.open(),
    },
    prefs.enableShortcuts,
  );

  const onToolbar = (a: ToolbarAction) => {
    if (a === 'lookup') setLookupIntent('view');
    setDialog(a);
  };

  const mode = prefs.defaultMode;
  const modeLabel = t(`mode.${mode}`);
  const requireName = prefs.customerBox && prefs.requireCustomerBox;

  const paymentPanel = storeId !== null && terminalId !== null ? (
    <PaymentPanel
      ref={payment}
      paymentTypes={paymentTypes}
      mode={mode}
      storeId={storeId}
      terminalId={terminalId}
      defaults={defaults}
      requireCustomerName={requireName}
      displayShortcuts={prefs.displayShortcuts}
      locale={locale}
      onCompleted={(order) => { setReceipt({ order, auto: true }); announceSale(order, t); }}
      onSaved={afterSave}
    />
  ) : null;
  // One cart (toolbar, lines, totals) placed by the screen: beside the search in sale mode, beside the running orders in payment mode.
  const cartToolbar = <CartToolbar ref={cartTools} displayShortcuts={prefs.displayShortcuts} />;
  const cartTable = <CartTable storeId={storeId} locale={locale} />;
  const cartTotals = <CartTotals locale={locale} onCustomerClick={() => setDialog('customers')} />;
  const cartArea = <>{cartToolbar}{cartTable}{cartTotals}</>;

  return (
    <>
      <PosScreen
        mode={mode}
        touch={prefs.enableTouch}
        progress={<><CatalogueProgress /><TillAnnouncer /></>}
        main={mode === 'payment' && storeId !== null ? (
          <Suspense fallback={null}><RunningOrdersScreen
            storeId={storeId}
            selectedId={cartOrderId}
            onSelect={(order) => load(order, 'settle')}
            cart={cartArea}
            payment={paymentPanel}
            locale={locale}
          /></Suspense>
        ) : undefined}
        filters={<FacetFilters facets={facets} selection={facetSel} onChange={setFacetSel} />}
        searchBar={prefs.searchBox ? (
          <CartSearchBar
            onScan={(code) => void scan(code)}
            onRefund={(n) => void loadByNumber(n, 'refund')}
            onReorder={(n) => void loadByNumber(n, 'reorder')}
            onOpenSearch={() => setDialog('itemSearch')}
            busy={scanning}
            displayShortcuts={prefs.displayShortcuts}
            searchRef={searchRef}
            onPick={pick}
            suggest={{ source: searchSource, version: searchVersion, byId, facets: facetSel }}
          />
        ) : null}
        held={storeId !== null ? <HeldOrdersButton ref={heldList} storeId={storeId} terminalId={terminalId} onResume={(o) => void unsuspend(o)} displayShortcuts={prefs.displayShortcuts} /> : null}
        customerBox={prefs.customerBox && mode !== 'payment' ? (
          <CartCustomerNameBox required={requireName} />
        ) : null}
        grid={showGrid ? <PosProductGrid table={table} visible={visible} categories={facets.categories} onAdd={addOne} /> : null}
        gridToggle={<GridToggle shown={showGrid} onChange={(on) => setPreferences({ productGrid: on })} />}
        cartToolbar={cartToolbar}
        cart={cartTable}
        totals={cartTotals}
        payment={paymentPanel}
        toolbar={<PosToolbar onAction={onToolbar} displayShortcuts={prefs.displayShortcuts} modeLabel={modeLabel} logoutButton={<><NoSaleButton /><OutboxIndicator locale={locale} /><TillUserMenu /><LogoutButton /></>} />}
      />

      <ItemSearchDialog
        open={dialog === 'itemSearch'}
        onClose={close}
        source={searchSource}
        version={searchVersion}
        byId={byId}
        facets={facetSel}
        onAdd={addOrChoose}
        onView={setDetailProduct}
        locale={locale}
      />
      <VariantChooser
        product={chooser?.product ?? null}
        locale={locale}
        onClose={() => setChooser(null)}
        onPick={(v) => {
          if (chooser) addProduct(chooser.product, v, chooser.qtyMilli);
          setChooser(null);
        }}
      />
      {/* Each in its own boundary: one loading never hides another that is open. */}
      {opened.detailProduct && <Suspense fallback={null}><ItemDetailDialog product={detailProduct} onClose={() => setDetailProduct(null)} locale={locale} /></Suspense>}
      {opened.taxes && <Suspense fallback={null}><TaxesDialog open={dialog === 'taxes'} onClose={close} taxes={taxes} /></Suspense>}
      {opened.discounts && <Suspense fallback={null}><DiscountsDialog open={dialog === 'discounts'} onClose={close} discounts={discounts} /></Suspense>}
      {opened.customers && <Suspense fallback={null}><CustomersDialog
        open={dialog === 'customers'}
        onClose={close}
        selectedId={customer?.id ?? null}
        onSelect={(c) => updateCart((s) => setCustomer(s, c))}
        onHistory={(c) => setHistoryCustomer(c)}
        locale={locale}
      /></Suspense>}
      {opened.historyCustomer && <Suspense fallback={null}><CustomerPaymentsDialog customer={historyCustomer} onClose={() => setHistoryCustomer(null)} locale={locale} /></Suspense>}
      {opened.help && <Suspense fallback={null}><HelpModal
        open={dialog === 'help'}
        onClose={close}
        shortcuts={SHORTCUTS}
        enableShortcuts={prefs.enableShortcuts}
        displayShortcuts={prefs.displayShortcuts}
        onChange={setPreferences}
      /></Suspense>}
      {opened.mode && <Suspense fallback={null}><ModeSelectorDialog open={dialog === 'mode'} onClose={close} mode={mode} onSelect={changeMode} /></Suspense>}
      {opened.lookup && <Suspense fallback={null}><OrderLookupDialog
        open={dialog === 'lookup'}
        onClose={close}
        storeId={storeId}
        locale={locale}
        onFound={(order) => {
          if (lookupIntent === 'view') setDetailOrder(order);
          else if (lookupIntent === 'reorder') load(order, 'reorder');
          else if (refundable(order)) setRefundOrder(order);
        }}
      /></Suspense>}
      {opened.detailOrder && <Suspense fallback={null}><OrderDetailDialog
        order={detailOrder}
        locale={locale}
        onClose={() => setDetailOrder(null)}
        onPrint={(order) => setReceipt({ order, auto: false })}
        onReorder={(order) => { load(order, 'reorder'); setDetailOrder(null); }}
        onRefund={(order) => { if (refundable(order)) { setRefundOrder(order); setDetailOrder(null); } }}
        onUnsuspend={(order) => { void unsuspend(order); setDetailOrder(null); }}
      /></Suspense>}
      {opened.refundOrder && <Suspense fallback={null}><RefundDialog order={refundOrder} onClose={() => setRefundOrder(null)} onConfirm={(order, picks) => { cartStore.set(loadOrder(order, 'refund', defaults, picks)); setRefundOrder(null); }} /></Suspense>}
      {opened.receipt && <Suspense fallback={null}><ReceiptPreviewDialog order={receipt?.order ?? null} autoPrint={receipt?.auto ?? false} settings={settings} locale={locale} onClose={() => setReceipt(null)} /></Suspense>}

      <BackOfficeDialogs
        dialog={dialog}
        touch={prefs.enableTouch}
        onClose={close}
        onLoad={load}
        onReceipt={(order) => setReceipt({ order, auto: false })}
        onSaved={afterSave}
        onRefundLines={(id) => void refundFromHistory(id)}
        onUnsuspend={(order) => cartStore.set(loadOrder(order, 'unsuspend', defaults))}
      />
    </>
  );
}
