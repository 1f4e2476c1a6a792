/**
 * What the pages' scripts share (issue 34): the icons and fields of their markup (html.ts), and the DOM calls that
 * bring them to life, without React.
 */
import { type Html, html, render } from './html.ts';

/** Tabler's icons (the back office's), as inline SVG hidden from assistive technologies. */
const ICONS: Record<IconName, Html> = {
  login: html`<path d="M14 8v-2a2 2 0 0 0-2-2h-7a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h7a2 2 0 0 0 2-2v-2"/><path d="M20 12h-13l3-3m0 6l-3-3"/>`,
  x: html`<path d="M18 6l-12 12"/><path d="M6 6l12 12"/>`,
  download: html`<path d="M4 17v2a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-2"/><path d="M7 11l5 5l5-5"/><path d="M12 4l0 12"/>`,
  arrowLeft: html`<path d="M5 12l14 0"/><path d="M5 12l6 6"/><path d="M5 12l6-6"/>`,
  eye: html`<path d="M10 12a2 2 0 1 0 4 0a2 2 0 0 0-4 0"/><path d="M21 12c-2.4 4-5.4 6-9 6c-3.6 0-6.6-2-9-6c2.4-4 5.4-6 9-6c3.6 0 6.6 2 9 6"/>`,
  eyeOff: html`<path d="M10.585 10.587a2 2 0 0 0 2.829 2.828"/><path d="M16.681 16.673a8.717 8.717 0 0 1-4.681 1.327c-3.6 0-6.6-2-9-6c1.272-2.12 2.712-3.678 4.32-4.674m2.86-1.146a9.055 9.055 0 0 1 1.82-.18c3.6 0 6.6 2 9 6c-.666 1.11-1.379 2.067-2.138 2.87"/><path d="M3 3l18 18"/>`,
  table: html`<path d="M3 5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2h-14a2 2 0 0 1-2-2v-14z"/><path d="M3 10h18"/><path d="M10 3v18"/>`,
};

export type IconName = 'login' | 'x' | 'download' | 'arrowLeft' | 'eye' | 'eyeOff' | 'table';

export function icon(name: IconName): Html {
  return html`<svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">${ICONS[name]}</svg>`;
}

export interface FieldOptions {
  id: string;
  label: string;
  name: string;
  type?: 'text' | 'email' | 'password' | 'search';
  autocomplete?: string;
  maxLength?: number;
  required?: boolean;
  placeholder?: string;
  inputMode?: 'numeric';
  description?: string;
  /** The eye button of a password field, named "Afficher {shows}". */
  shows?: string;
}

/** A labelled input with its error line (empty until `setFieldError`), as the back office's Mantine fields read. */
export function fieldHtml(options: FieldOptions): Html {
  const { id, label, name, type = 'text', required = false } = options;
  const input = html`<input id="${id}" name="${name}" type="${type}" class="input"${options.autocomplete ? html` autocomplete="${options.autocomplete}"` : ''}${options.maxLength ? html` maxlength="${options.maxLength}"` : ''}${options.placeholder ? html` placeholder="${options.placeholder}"` : ''}${options.inputMode ? html` inputmode="${options.inputMode}"` : ''}${required ? html` aria-required="true"` : ''}${options.description ? html` aria-describedby="${id}-description"` : ''}>`;
  const control = options.shows
    ? html`<div class="input-group">${input}<button type="button" class="btn-eye" aria-controls="${id}" aria-pressed="false" aria-label="Afficher ${options.shows}">${icon('eye')}</button></div>`
    : input;
  return html`<div class="field"><label for="${id}">${label}${required ? html`<span class="required" aria-hidden="true"> *</span>` : ''}</label>${options.description ? html`<p class="field-description" id="${id}-description">${options.description}</p>` : ''}${control}<p class="field-error" id="${id}-error" hidden></p></div>`;
}

/** Shows `message` under the field (and tells assistive technologies), or clears it. */
export function setFieldError(input: HTMLInputElement, message?: string): void {
  const line = document.getElementById(`${input.id}-error`);
  const description =
    input
      .getAttribute('aria-describedby')
      ?.split(' ')
      .filter((id) => id !== `${input.id}-error`) ?? [];
  if (line) {
    line.textContent = message ?? '';
    line.hidden = !message;
  }
  if (message) {
    input.setAttribute('aria-invalid', 'true');
    input.setAttribute('aria-describedby', [...description, `${input.id}-error`].join(' '));
  } else {
    input.removeAttribute('aria-invalid');
    if (description.length > 0) input.setAttribute('aria-describedby', description.join(' '));
    else input.removeAttribute('aria-describedby');
  }
}

/** The eye buttons of the password fields under `root`: they show and hide the password, `aria-pressed` says which. */
export function wirePasswordToggles(root: ParentNode): void {
  for (const button of root.querySelectorAll<HTMLButtonElement>('.btn-eye')) {
    button.addEventListener('click', () => {
      const input = document.getElementById(button.getAttribute('aria-controls') ?? '') as HTMLInputElement | null;
      if (!input) return;
      const shown = input.type === 'password';
      input.type = shown ? 'text' : 'password';
      button.setAttribute('aria-pressed', String(shown));
      render(button, icon(shown ? 'eyeOff' : 'eye'));
    });
  }
}

/** The element of the page with this id, which the page's own markup guarantees. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`#${id} is missing from the page`);
  return element as T;
}

/**
 * Leaving for another document: the back office and the sign-in page reach each other by loading the other's page
 * (issue 34). A test replaces `to`.
 */
export const leavePage = {
  to(url: string): void {
    window.location.replace(url);
  },
};
