/**
 * The words printed on receipts and X/Z reports, in the store's language: Arabic for a store whose
 * locale is Arabic (the paper is then set right to left, as a raster: receipt-lines.ts), English
 * otherwise. Amounts keep Latin digits on paper either way.
 */
const en = {
  receipt: 'Receipt', refund: 'Refund', copy: ' (copy)', orderNo: 'Order#', refundOf: 'Refund of order#',
  cashier: 'Cashier:', customer: 'Customer:', discount: 'Discount', orderDiscount: 'Order discount', tax: 'Tax',
  on: 'on', incl: '(incl.)', adjustment: 'Adjustment', rounding: 'Cash rounding', total: 'TOTAL', payment: 'Payment',
  tendered: 'tendered', refunded: 'refunded', change: 'Change',
  xReport: 'X REPORT - day not closed', zReport: 'Z REPORT - day closed', terminal: 'Terminal', opened: 'Opened',
  openedBy: 'Opened by', closed: 'Closed', closedBy: 'Closed by', printed: 'Printed', salesByType: 'Sales by payment type',
  totalSales: 'Total sales', openingFloat: 'Opening float', cashSales: 'Cash sales', cashAdded: 'Cash added',
  cashWithdrawn: 'Cash withdrawn', expenses: 'Expenses', expectedCash: 'Expected cash', countedCash: 'Counted cash',
  notCounted: 'not counted', over: 'Over', short: 'Short', even: 'Over/short',
  packingList: 'PACKING LIST', transferNo: 'Transfer#', from: 'From', to: 'To', status: 'Status',
  requested: 'Requested', sent: 'Sent', received: 'Received', lost: 'Lost', lossReason: 'Reason:', location: 'Shelf',
  lines: 'Lines', totalQty: 'Total quantity', requestedBy: 'Requested by', sentBy: 'Sent by', receivedBy: 'Received by',
  statuses: { requested: 'requested', sent: 'sent (in transit)', received: 'received', cancelled: 'cancelled' } as Record<string, string>,
};

export type Words = typeof en;

const ar: Words = {
  receipt: 'إيصال', refund: 'استرجاع', copy: ' (نسخة)', orderNo: 'رقم الطلب', refundOf: 'استرجاع الطلب رقم',
  cashier: 'الكاشير:', customer: 'العميل:', discount: 'خصم', orderDiscount: 'خصم الطلب', tax: 'ضريبة',
  on: 'على', incl: '(شاملة)', adjustment: 'تعديل', rounding: 'تقريب نقدي', total: 'الإجمالي', payment: 'دفع',
  tendered: 'مدفوع', refunded: 'مسترد', change: 'الباقي',
  xReport: 'تقرير X - اليوم لم يُقفل', zReport: 'تقرير Z - تم إقفال اليوم', terminal: 'نقطة البيع', opened: 'فُتح',
  openedBy: 'فتحه', closed: 'أُقفل', closedBy: 'أقفله', printed: 'طُبع', salesByType: 'المبيعات حسب طريقة الدفع',
  totalSales: 'إجمالي المبيعات', openingFloat: 'رصيد الافتتاح', cashSales: 'المبيعات النقدية', cashAdded: 'نقد مضاف',
  cashWithdrawn: 'نقد مسحوب', expenses: 'المصروفات', expectedCash: 'النقد المتوقع', countedCash: 'النقد المعدود',
  notCounted: 'لم يُعد', over: 'زيادة', short: 'عجز', even: 'زيادة/عجز',
  packingList: 'قائمة التعبئة', transferNo: 'رقم التحويل', from: 'من', to: 'إلى', status: 'الحالة',
  requested: 'مطلوب', sent: 'مُرسل', received: 'مُستلم', lost: 'مفقود', lossReason: 'السبب:', location: 'الرف',
  lines: 'البنود', totalQty: 'إجمالي الكمية', requestedBy: 'طلبه', sentBy: 'أرسله', receivedBy: 'استلمه',
  statuses: { requested: 'مطلوب', sent: 'مُرسل (قيد النقل)', received: 'مُستلم', cancelled: 'ملغى' },
};

/** Arabic for a store whose locale is Arabic ('ar', 'ar-SA'...), else English. */
export const isArabicLocale = (locale: string | null | undefined): boolean => (locale ?? '').split('-')[0].toLowerCase() === 'ar';
export const wordsFor = (locale: string | null | undefined): Words => (isArabicLocale(locale) ? ar : en);
