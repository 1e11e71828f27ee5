/**
 * Typing into a field from outside the keyboard (the on-screen keyboard), so that React and
 * react-hook-form see it exactly like a keystroke: the value goes through the element's *native*
 * setter (React keeps its own copy of the last value on the instance; setting the prototype's
 * property leaves that copy stale, so React notices the change), then an `input` event bubbles.
 * Controlled inputs re-render with their state, NumberInput can still refuse the character, and
 * register()ed inputs get onChange.
 */

export type TypableField = HTMLInputElement | HTMLTextAreaElement;

/** Input types the on-screen keyboard serves (checkbox, date, file, range… have their own UI). */
const TEXT_TYPES: ReadonlySet<string> = new Set(['text', 'search', 'email', 'tel', 'url', 'password', 'number']);

export type KeyboardKind = 'digits' | 'text';

/** Which keyboard a focused element wants, or null when it is not a field we type into. */
export function keyboardKindOf(el: Element | null | undefined): KeyboardKind | null {
  if (!el || (el as HTMLElement).dataset?.touchKeyboard === 'off') return null;
  if (el instanceof HTMLTextAreaElement) return el.readOnly || el.disabled ? null : 'text';
  if (!(el instanceof HTMLInputElement) || el.readOnly || el.disabled || !TEXT_TYPES.has(el.type)) return null;
  const mode = el.getAttribute('inputmode');
  return el.type === 'number' || el.type === 'tel' || mode === 'numeric' || mode === 'decimal' ? 'digits' : 'text';
}

/** True when the digits pad should offer a decimal separator. */
export function acceptsDecimal(el: Element): boolean {
  if (!(el instanceof HTMLInputElement)) return false;
  const mode = el.getAttribute('inputmode');
  if (mode === 'numeric' || el.type === 'tel') return false;
  if (el.type === 'number') return !/^\d+$/.test(el.step) || el.step === 'any';
  return true;
}

function selectionOf(el: TypableField): [number, number] {
  try {
    // email and number inputs have no selection API: they throw or answer null.
    const start = el.selectionStart;
    const end = el.selectionEnd;
    if (start !== null && end !== null) return [start, end];
  } catch {
    // fall through
  }
  return [el.value.length, el.value.length];
}

/** Sets the value the way a keystroke does (native setter + bubbling `input`), caret after `caret`. */
export function setFieldValue(el: TypableField, value: string, caret: number = value.length): void {
  const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  const setter = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
  if (setter) setter.call(el, value);
  else el.value = value;
  el.dispatchEvent(new Event('input', { bubbles: true }));
  // A controlled input that refused the text has already put its own value back: keep the caret sane.
  const at = Math.min(caret, el.value.length);
  try {
    el.setSelectionRange(at, at);
  } catch {
    // no selection API on this input type
  }
}

/** Types `text` at the caret, replacing the selection (select-all fields are overwritten, like a keystroke). */
export function insertText(el: TypableField, text: string): void {
  const [start, end] = selectionOf(el);
  const max = el.maxLength;
  let insert = text;
  if (max >= 0) {
    const room = max - (el.value.length - (end - start));
    if (room <= 0) return;
    insert = insert.slice(0, room);
  }
  setFieldValue(el, el.value.slice(0, start) + insert + el.value.slice(end), start + insert.length);
}

/** Backspace: removes the selection, or the character before the caret. */
export function deleteBackward(el: TypableField): void {
  const [start, end] = selectionOf(el);
  if (start !== end) setFieldValue(el, el.value.slice(0, start) + el.value.slice(end), start);
  else if (start > 0) {
    // Do not split a surrogate pair (emoji) or leave half of one.
    const cut = start >= 2 && /[\uDC00-\uDFFF]/.test(el.value[start - 1]) && /[\uD800-\uDBFF]/.test(el.value[start - 2]) ? 2 : 1;
    setFieldValue(el, el.value.slice(0, start - cut) + el.value.slice(end), start - cut);
  }
}

/** Empties the field. */
export function clearField(el: TypableField): void {
  if (el.value !== '') setFieldValue(el, '', 0);
}

function keyEvent(type: 'keydown' | 'keyup') {
  return new KeyboardEvent(type, { key: 'Enter', code: 'Enter', keyCode: 13, which: 13, bubbles: true, cancelable: true } as KeyboardEventInit);
}

const IMPLICIT_SUBMIT_TYPES: ReadonlySet<string> = new Set(['text', 'search', 'email', 'tel', 'url', 'password', 'number', 'date', 'datetime-local', 'month', 'time', 'week']);

/**
 * Enter: a textarea gets a new line; an input gets keydown/keyup Enter (handlers such as list
 * navigation see it) and then, unless a handler prevented it, the form's implicit submission as the
 * browser does it: the default button if there is one (not when it is disabled), otherwise only a
 * form with a single text field submits.
 */
export function pressEnter(el: TypableField): void {
  if (el instanceof HTMLTextAreaElement) {
    insertText(el, '\n');
    return;
  }
  const proceed = el.dispatchEvent(keyEvent('keydown'));
  el.dispatchEvent(keyEvent('keyup'));
  const form = el.form;
  if (!proceed || !form || !el.isConnected) return;
  const controls = Array.from(form.elements);
  const submitter = controls.find(
    (c): c is HTMLButtonElement | HTMLInputElement =>
      (c instanceof HTMLButtonElement && c.type === 'submit') || (c instanceof HTMLInputElement && (c.type === 'submit' || c.type === 'image')),
  );
  if (submitter) {
    if (!submitter.disabled) form.requestSubmit(submitter);
    return;
  }
  const fields = controls.filter((c) => c instanceof HTMLInputElement && IMPLICIT_SUBMIT_TYPES.has(c.type));
  if (fields.length === 1) form.requestSubmit();
}
