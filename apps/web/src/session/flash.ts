/**
 * Toasts handed from one page to the next (issue 34): the sign-in page (no React) opens the back office with
 * "Connexion réussie", and the back office leaves for the sign-in page with "Déconnexion réussie". Kept in
 * sessionStorage, read once.
 */
import type { Toast } from '../components/dom/toasts.ts';

const KEY = 'pending_toasts';

export function keepToasts(toasts: Toast[]): void {
  if (toasts.length === 0) return;
  sessionStorage.setItem(KEY, JSON.stringify([...takeToasts(), ...toasts]));
}

/** The toasts left for this page, forgotten once read. */
export function takeToasts(): Toast[] {
  const raw = sessionStorage.getItem(KEY);
  sessionStorage.removeItem(KEY);
  if (!raw) return [];
  try {
    const toasts = JSON.parse(raw) as unknown;
    return Array.isArray(toasts) ? (toasts as Toast[]) : [];
  } catch {
    return [];
  }
}
