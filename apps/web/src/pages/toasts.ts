import type { Toast } from '@reformes/domain';
import { html, render } from './html.ts';

const DEFAULT_AUTO_CLOSE = 5000;

function region(): HTMLElement {
  let container = document.getElementById('toasts');
  if (!container) {
    container = Object.assign(document.createElement('div'), { id: 'toasts', className: 'toasts' });
    document.body.append(container);
  }
  return container;
}

/** A toast at the top right of a page drawn without React: `role="alert"`, its title first, closed after 5 s or by its button. */
export function showToast(toast: Toast): void {
  const element = document.createElement('div');
  element.className = `toast toast-${toast.color}`;
  element.setAttribute('role', 'alert');
  render(
    element,
    html`${toast.title ? html`<span class="toast-title">${toast.title}</span>` : ''}<span>${toast.message}</span><button type="button" class="toast-close" aria-label="Fermer la notification">×</button>`,
  );
  const close = () => element.remove();
  element.querySelector('button')?.addEventListener('click', close);
  region().append(element);
  setTimeout(close, toast.autoClose ?? DEFAULT_AUTO_CLOSE);
}
