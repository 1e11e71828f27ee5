/**
 * The page telling staff how to trust the shop's local CA, and the CA certificate itself (never its
 * key). Served at /trust and /trust/ca.crt over HTTPS and, before the CA is trusted, over plain http.
 * English and Arabic (?lang=ar, or the browser's Accept-Language).
 */
import crypto from 'node:crypto';
import type http from 'node:http';
import type { FastifyInstance } from 'fastify';

type Lang = 'en' | 'ar';
const TEXT: Record<Lang, { title: string; intro: string; download: string; fingerprint: string; after: string; steps: [string, string][] }> = {
  en: {
    title: 'Trust this shop server',
    intro: 'Tills reach this server over HTTPS with a certificate from the shop\'s own certificate authority. Install it once on each device, then open the address again.',
    download: 'Download the certificate (ca.crt)',
    fingerprint: 'Check that the fingerprint shown by the device is',
    after: 'Then open',
    steps: [
      ['Windows', 'Open ca.crt, choose Install Certificate, Local Machine, "Place all certificates in the following store", Trusted Root Certification Authorities, Finish. Restart the browser.'],
      ['macOS', 'Open ca.crt (Keychain Access opens), add it to the System keychain, double-click it, expand Trust and set "When using this certificate" to Always Trust.'],
      ['Android', 'Settings, Security, Encryption & credentials, Install a certificate, CA certificate, Install anyway, pick ca.crt from Downloads.'],
      ['iOS / iPadOS', 'Open this page in Safari, download ca.crt and allow the profile; Settings, Profile Downloaded, Install; then Settings, General, About, Certificate Trust Settings, switch on full trust for this certificate.'],
      ['ChromeOS', 'Open chrome://certificate-manager (or Settings, Privacy and security, Security, Manage certificates), Authorities, Import, choose ca.crt and tick "Trust this certificate for identifying websites".'],
    ],
  },
  ar: {
    title: 'الوثوق بخادم المتجر',
    intro: 'تتصل نقاط البيع بهذا الخادم عبر HTTPS بشهادة صادرة عن جهة التصديق الخاصة بالمتجر. ثبّتها مرة واحدة على كل جهاز ثم افتح العنوان من جديد.',
    download: 'تنزيل الشهادة (ca.crt)',
    fingerprint: 'تحقّق من أن البصمة التي يعرضها الجهاز هي',
    after: 'ثم افتح',
    steps: [
      ['Windows', 'افتح ca.crt، واختر تثبيت الشهادة، ثم الجهاز المحلي، ثم "وضع كل الشهادات في المخزن التالي"، ثم جهات التصديق الجذرية الموثوقة، ثم إنهاء. أعد تشغيل المتصفح.'],
      ['macOS', 'افتح ca.crt (يفتح Keychain Access)، وأضفها إلى سلسلة مفاتيح النظام، ثم انقر عليها مرتين ووسّع الثقة واضبط "عند استخدام هذه الشهادة" على الوثوق دائماً.'],
      ['Android', 'الإعدادات، الأمان، التشفير وبيانات الاعتماد، تثبيت شهادة، شهادة CA، التثبيت على أي حال، ثم اختر ca.crt من التنزيلات.'],
      ['iOS / iPadOS', 'افتح هذه الصفحة في Safari ونزّل ca.crt واسمح بملف التعريف؛ الإعدادات، تم تنزيل ملف التعريف، تثبيت؛ ثم الإعدادات، عام، حول، إعدادات الوثوق بالشهادات، وفعّل الوثوق الكامل بهذه الشهادة.'],
      ['ChromeOS', 'افتح chrome://certificate-manager (أو الإعدادات، الخصوصية والأمان، الأمان، إدارة الشهادات)، ثم الجهات، استيراد، واختر ca.crt وحدّد "الوثوق بهذه الشهادة لتعريف المواقع".'],
    ],
  },
};

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function caFingerprint(caPem: string): string {
  return new crypto.X509Certificate(caPem).fingerprint256;
}

function pickLang(query: string, acceptLanguage: string | undefined): Lang {
  const q = new URLSearchParams(query).get('lang');
  if (q === 'ar' || q === 'en') return q;
  return /^\s*ar\b/i.test(acceptLanguage ?? '') ? 'ar' : 'en';
}

export function renderTrustPage(caPem: string, lang: Lang, host: string): string {
  const t = TEXT[lang];
  const steps = t.steps.map(([os, how]) => `<h2>${escape(os)}</h2><p>${escape(how)}</p>`).join('');
  const other = lang === 'ar' ? '<a href="?lang=en">English</a>' : '<a href="?lang=ar">العربية</a>';
  return `<!doctype html><html lang="${lang}" dir="${lang === 'ar' ? 'rtl' : 'ltr'}"><head><meta charset="utf-8">`
    + `<meta name="viewport" content="width=device-width,initial-scale=1"><title>${escape(t.title)}</title>`
    + '<style>body{font-family:system-ui,sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem;line-height:1.5}code{word-break:break-all}</style></head><body>'
    + `<p>${other}</p><h1>${escape(t.title)}</h1><p>${escape(t.intro)}</p>`
    + `<p><a href="/trust/ca.crt" download="ca.crt"><strong>${escape(t.download)}</strong></a></p>`
    + `<p>${escape(t.fingerprint)} (SHA-256):<br><code>${escape(caFingerprint(caPem))}</code></p>${steps}`
    + `<p>${escape(t.after)} <a href="https://${escape(host)}/">https://${escape(host)}/</a></p></body></html>`;
}

const CA_HEADERS = { 'content-type': 'application/x-x509-ca-cert', 'content-disposition': 'attachment; filename="ca.crt"', 'cache-control': 'no-cache' };
const PAGE_HEADERS = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'" };

/** The trust page and CA on a plain-http connection; false for any other path (the caller redirects). */
export function servePlainTrustPage(req: http.IncomingMessage, res: http.ServerResponse, caPem: string): boolean {
  const [pathname, query = ''] = (req.url ?? '/').split('?');
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (pathname === '/trust/ca.crt') { res.writeHead(200, CA_HEADERS).end(caPem); return true; }
  if (pathname === '/trust' || pathname === '/trust/') {
    res.writeHead(200, PAGE_HEADERS).end(renderTrustPage(caPem, pickLang(query, req.headers['accept-language']), req.headers.host ?? 'localhost'));
    return true;
  }
  return false;
}

/** The same page and certificate over HTTPS, as routes of the app (404 with the shop's own certificate). */
export function registerTrustRoutes(app: FastifyInstance, ca: () => string | undefined) {
  app.get('/trust/ca.crt', async (_req, reply) => {
    const caPem = ca();
    return caPem ? reply.headers(CA_HEADERS).send(caPem) : reply.status(404).send({ code: 'NOT_FOUND', message: 'This server uses its own certificate, not a local CA' });
  });
  app.get('/trust', async (request, reply) => {
    const caPem = ca();
    if (!caPem) return reply.status(404).send({ code: 'NOT_FOUND', message: 'This server uses its own certificate, not a local CA' });
    const query = request.url.split('?')[1] ?? '';
    return reply.headers(PAGE_HEADERS).send(renderTrustPage(caPem, pickLang(query, request.headers['accept-language']), request.headers.host ?? 'localhost'));
  });
}
