/**
 * Translation key check: every key the code uses exists in English and in Arabic, and every English
 * text has a real Arabic translation (spec 1: en and ar; issue 8: nothing left in English in the
 * Arabic UI). The extractor is a plain scanner, not a parser: it understands
 *   t('key') t("key") i18n.t('key') t(cond ? 'a' : 'b') t(`prefix.${x}`) i18nKey="key"  'ns:key'
 * and the namespace(s) given to useTranslation() in the same file (falling back to 'common', like
 * lib/i18n.ts). Keys built entirely at run time (t(list[i]), t(`${kind}.add`)) cannot be checked here.
 */
import { describe, expect, it } from 'vitest';

type Tree = { [key: string]: string | Tree };
type Lang = 'en' | 'ar';

const sources = import.meta.glob<string>('../**/*.{ts,tsx}', { query: '?raw', import: 'default', eager: true });
const localeFiles = import.meta.glob<Tree>('./*/*.json', { import: 'default', eager: true });

const resources: Record<Lang, Record<string, Tree>> = { en: {}, ar: {} };
for (const [file, tree] of Object.entries(localeFiles)) {
  const m = /\.\/(en|ar)\/([^/]+)\.json$/.exec(file);
  if (m) resources[m[1] as Lang][m[2]] = tree;
}
const NAMESPACES = new Set([...Object.keys(resources.en), ...Object.keys(resources.ar)]);
const DEFAULT_NS = 'common'; // defaultNS and fallbackNS in lib/i18n.ts

const PLURALS: Record<Lang, string[]> = {
  en: new Intl.PluralRules('en').resolvedOptions().pluralCategories,
  ar: new Intl.PluralRules('ar').resolvedOptions().pluralCategories,
};
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/**
 * Texts that may read the same in both languages: language names shown in their own script and
 * keyboard legends. Texts without Latin letters ('404', '{{count}}', '%') are allowed anyway.
 */
// ISO 4217 codes and IANA zone names are the same in every language (the setup page's examples).
const SAME_IN_BOTH = new Set(['common:language.en', 'common:language.ar', 'setup:currencyHint', 'setup:timeZoneHint']);
/** Latin words an Arabic text may contain (units, codes, shortcut names, brands). */
const LATIN_IN_ARABIC = /\b(ctrl|shift|alt|enter|del|esc|F\d+|US\$|USD|QR|CSV|PO|SKU|ID|PDF|POS|kg|g|ml|l|cm|m|pc|pcs|e-?mail|OK)\b/gi;

// ---------------------------------------------------------------------------------------------
// Extraction

export interface KeyUsage {
  file: string;
  /** Namespaces that may hold the key, in lookup order (explicit ns:, else the file's, then common). */
  chains: string[][];
  key: string;
  /** 'prefix': a template literal `a.b.${x}`: the object a.b must exist and be translated. */
  kind: 'key' | 'prefix';
}

function stripComments(src: string): string {
  return src.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/(^|[^:\\'"`])\/\/.*$/gm, '$1');
}

/** The text of the first argument of a call whose '(' is at `open`. */
function firstArgument(src: string, open: number): string {
  let depth = 0;
  let quote: string | null = null;
  for (let i = open + 1; i < src.length; i++) {
    const c = src[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      if (depth === 0) return src.slice(open + 1, i);
      depth--;
    } else if (c === ',' && depth === 0) return src.slice(open + 1, i);
  }
  return '';
}

/** Keys (and template prefixes) a t() argument can produce: the literal itself, or the branches of a ternary. */
function keysOfArgument(arg: string): Array<{ key: string; kind: 'key' | 'prefix' }> {
  const out: Array<{ key: string; kind: 'key' | 'prefix' }> = [];
  // Template literals first (their ${...} may hold strings that are not keys), then blanked out.
  const templates: string[] = [];
  const rest = arg.replace(/(^|[?:])(\s*)`([^`]*)`/g, (_all, before: string, space: string, text: string) => {
    templates.push(text);
    return `${before}${space}\u0000`;
  }).replace(/`[^`]*`/g, '\u0000');
  // A string at the start of the argument or right after '?' or ':' (ternary branches), not a compared value.
  const literal = /(?:^|[?:]|^\s*\()\s*(['"])((?:\\.|(?!\1).)*)\1/g;
  for (const m of rest.matchAll(literal)) out.push({ key: m[2], kind: 'key' });
  for (const text of templates) {
    const at = text.indexOf('${');
    if (at < 0) out.push({ key: text, kind: 'key' });
    else {
      const head = text.slice(0, at);
      const dot = head.lastIndexOf('.');
      if (dot > 0) out.push({ key: head.slice(0, dot), kind: 'prefix' });
    }
  }
  return out.filter((k) => /^[\w.:-]+$/.test(k.key));
}

export function extractKeyUsages(file: string, raw: string): KeyUsage[] {
  const src = stripComments(raw);
  const fileNs: string[] = [];
  for (const m of src.matchAll(/useTranslation\(\s*(?:(['"])([\w-]+)\1|\[([^\]]*)\])/g)) {
    if (m[2]) fileNs.push(m[2]);
    else for (const n of m[3].matchAll(/['"]([\w-]+)['"]/g)) fileNs.push(n[1]);
  }
  const hookChains = (fileNs.length ? [...new Set(fileNs)] : [DEFAULT_NS]).map((ns) => [...new Set([ns, DEFAULT_NS])]);

  // t, i18n.t, and aliases: const { t: tc } = useTranslation('x')
  const names = new Set(['t']);
  for (const m of src.matchAll(/\{\s*t\s*:\s*([A-Za-z_$][\w$]*)/g)) names.add(m[1]);
  const callee = new RegExp(`(?<![\\w$.])(${[...names].join('|')})\\(|\\bi18n\\.t\\(`, 'g');

  const usages: KeyUsage[] = [];
  const push = (key: string, kind: 'key' | 'prefix', chains: string[][]) => {
    const colon = key.indexOf(':');
    if (colon > 0 && NAMESPACES.has(key.slice(0, colon))) {
      const ns = key.slice(0, colon);
      usages.push({ file, key: key.slice(colon + 1), kind, chains: [[...new Set([ns, DEFAULT_NS])]] });
    } else usages.push({ file, key, kind, chains });
  };
  for (const m of src.matchAll(callee)) {
    const open = (m.index ?? 0) + m[0].length - 1;
    const chains = m[0].startsWith('i18n.') ? [[DEFAULT_NS]] : hookChains;
    for (const k of keysOfArgument(firstArgument(src, open))) push(k.key, k.kind, chains);
  }
  for (const m of src.matchAll(/i18nKey=\{?\s*(['"])([\w.:-]+)\1/g)) push(m[2], 'key', hookChains);
  return usages;
}

// ---------------------------------------------------------------------------------------------
// Lookup

function node(lang: Lang, ns: string, path: string): string | Tree | undefined {
  let at: string | Tree | undefined = resources[lang][ns];
  for (const part of path.split('.')) {
    if (!at || typeof at === 'string') return undefined;
    at = at[part];
  }
  return at;
}

/** A key resolves when it is a text, or a plural family (key_one, key_other…) complete for the language. */
function hasText(lang: Lang, ns: string, key: string): boolean {
  if (typeof node(lang, ns, key) === 'string') return true;
  const dot = key.lastIndexOf('.');
  const parent = dot < 0 ? resources[lang][ns] : node(lang, ns, key.slice(0, dot));
  if (!parent || typeof parent === 'string') return false;
  const leaf = key.slice(dot + 1);
  return PLURALS[lang].every((c) => typeof parent[`${leaf}_${c}`] === 'string');
}

function leaves(tree: Tree, prefix = ''): Array<[string, string]> {
  return Object.entries(tree).flatMap(([k, v]) => (typeof v === 'string' ? [[`${prefix}${k}`, v] as [string, string]] : leaves(v, `${prefix}${k}.`)));
}

/** Problems with one usage: missing in English, or (where English has it) not translated into Arabic. */
export function checkUsage(u: KeyUsage): string[] {
  const where = `${u.file.replace(/^\.\.\//, 'src/')}: ${u.kind === 'prefix' ? `${u.key}.*` : u.key}`;
  const options = u.chains.map((chain) => {
    if (u.kind === 'prefix') {
      const i = chain.findIndex((ns) => { const n = node('en', ns, u.key); return !!n && typeof n !== 'string'; });
      if (i < 0) return [`${where} (${chain[0]}): missing in en`];
      const enTree = node('en', chain[i], u.key) as Tree;
      const missing = leaves(enTree).map(([k]) => k.replace(PLURAL_SUFFIX, '')).filter((k, j, all) => all.indexOf(k) === j)
        .filter((k) => !chain.slice(0, i + 1).some((ns) => hasText('ar', ns, `${u.key}.${k}`)));
      return missing.map((k) => `${where} (${chain[i]}): ${u.key}.${k} missing in ar`);
    }
    const i = chain.findIndex((ns) => hasText('en', ns, u.key));
    if (i < 0) return [`${where} (${chain[0]}): missing in en`];
    // i18next looks namespace by namespace, Arabic then English: Arabic must be found no later than English.
    return chain.slice(0, i + 1).some((ns) => hasText('ar', ns, u.key)) ? [] : [`${where} (${chain[i]}): missing in ar`];
  });
  return options.find((problems) => problems.length === 0) ?? options[0];
}

/** Every English text has a non-empty Arabic text that is not the English one left in place. */
export function checkTranslations(): string[] {
  const problems: string[] = [];
  for (const [ns, tree] of Object.entries(resources.en)) {
    const seen = new Set<string>();
    for (const [path, en] of leaves(tree)) {
      const base = path.replace(PLURAL_SUFFIX, '');
      const plural = base !== path;
      if (plural && seen.has(base)) continue;
      seen.add(base);
      if (!hasText('ar', ns, base)) {
        problems.push(`${ns}:${base}: missing in ar${plural ? ` (plural: ${PLURALS.ar.join(', ')})` : ''}`);
        continue;
      }
      const arTexts = plural ? PLURALS.ar.map((c) => node('ar', ns, `${base}_${c}`) as string) : [node('ar', ns, base) as string];
      if (arTexts.some((t) => !t.trim())) problems.push(`${ns}:${base}: empty in ar`);
      else if (!plural && arTexts[0] === en && /[A-Za-z]/.test(en.replace(/\{\{[^}]*\}\}/g, '')) && !SAME_IN_BOTH.has(`${ns}:${base}`)) {
        problems.push(`${ns}:${base}: same as English ("${en}")`);
      } else {
        const latin = arTexts.map((t) => t.replace(/\{\{[^}]*\}\}/g, '').replace(LATIN_IN_ARABIC, '')).find((t) => /[A-Za-z]{3,}/.test(t));
        if (latin && !SAME_IN_BOTH.has(`${ns}:${base}`)) problems.push(`${ns}:${base}: English words left in ar ("${latin.trim()}")`);
      }
    }
  }
  for (const ns of Object.keys(resources.ar)) if (!resources.en[ns]) problems.push(`${ns}: ar file without en file`);
  return problems;
}

// ---------------------------------------------------------------------------------------------

const appFiles = Object.entries(sources).filter(([file]) => !/\.test\.tsx?$|\/test\/|\.d\.ts$/.test(file));
const usages = appFiles.flatMap(([file, src]) => extractKeyUsages(file, src));

describe('translation keys', () => {
  it('finds the keys the code uses', () => {
    expect(appFiles.length).toBeGreaterThan(50);
    expect(usages.length).toBeGreaterThan(300);
    expect(usages).toContainEqual(expect.objectContaining({ key: 'login.title', chains: [['auth', 'common']] }));
  });

  it('every key used in the code exists in English and in Arabic', () => {
    const problems = [...new Set(usages.flatMap(checkUsage))].sort();
    expect(problems, `${problems.length} missing translation(s):\n${problems.join('\n')}`).toEqual([]);
  });

  it('every English text has a different, non-empty Arabic text', () => {
    const problems = checkTranslations();
    expect(problems, `${problems.length} untranslated text(s):\n${problems.join('\n')}`).toEqual([]);
  });
});

describe('the key extractor and checker (self-test)', () => {
  const fixture = `
    import { useTranslation } from 'react-i18next';
    // t('commented.out') is ignored
    export function X({ on, kind }: { on: boolean; kind: string }) {
      const { t } = useTranslation('admin');
      const { t: tc } = useTranslation('common');
      i18n.t('common:networkError');
      return [t('profile.title'), t(on ? 'staff.title' : 'sidebar.staff'), t(kind === 'x' ? 'profile.saved' : 'profile.submit'),
        t(\`sidebar.\${kind}\`), tc('save'), t('auth:login.title'), t('no.such.key'), t(\`\${kind}.add\`), t(list[kind])];
    }`;
  const found = extractKeyUsages('fixture.tsx', fixture);

  it('reads literals, ternary branches, prefixes, aliases and ns: prefixes', () => {
    expect(found.map((u) => `${u.chains.map((c) => c.join('>')).join('|')} ${u.kind} ${u.key}`)).toEqual([
      'common key networkError',
      'admin>common|common key profile.title',
      'admin>common|common key staff.title',
      'admin>common|common key sidebar.staff',
      'admin>common|common key profile.saved',
      'admin>common|common key profile.submit',
      'admin>common|common prefix sidebar',
      'admin>common|common key save',
      'auth>common key login.title',
      'admin>common|common key no.such.key',
    ]);
  });

  it('fails a key that is missing', () => {
    expect(found.flatMap(checkUsage)).toEqual(['fixture.tsx: no.such.key (admin): missing in en']);
  });

  it('fails a key that English has and Arabic has not', () => {
    const en = resources.en.admin as Tree;
    en.onlyInEnglish = 'Only in English';
    try {
      expect(checkUsage({ file: 'f.tsx', key: 'onlyInEnglish', kind: 'key', chains: [['admin', 'common']] })).toEqual(['f.tsx: onlyInEnglish (admin): missing in ar']);
      expect(checkTranslations()).toContain('admin:onlyInEnglish: missing in ar');
    } finally {
      delete en.onlyInEnglish;
    }
  });

  it('fails an Arabic text left in English', () => {
    const ar = resources.ar.admin as Tree;
    const before = ar.brand;
    ar.brand = 'POS Administration';
    try {
      expect(checkTranslations()).toContain('admin:brand: same as English ("POS Administration")');
    } finally {
      ar.brand = before;
    }
  });
});
