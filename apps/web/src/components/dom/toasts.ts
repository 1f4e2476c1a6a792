import { escapeHtml } from './html.ts';

/** A toast as the back office shows it (components/notify.tsx), and as a page hands it to the next one (session/flash.ts). */
export interface Toast {
  color: 'green' | 'red' | 'yellow';
  title?: string;
  message: string;
  /** Milliseconds; 5 s by default (spec §9). */
  autoClose?: number;
}

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
  element.innerHTML = `${toast.title ? `<span class="toast-title">${escapeHtml(toast.title)}</span>` : ''}<span>${escapeHtml(toast.message)}</span><button type="button" class="toast-close" aria-label="Fermer la notification">×</button>`;
  const close = () => element.remove();
  element.querySelector('button')?.addEventListener('click', close);
  region().append(element);
  setTimeout(close, toast.autoClose ?? DEFAULT_AUTO_CLOSE);
}
