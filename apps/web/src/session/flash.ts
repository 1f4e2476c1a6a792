/**
 * Toasts handed from one page to the next (issue 34): the sign-in page (no React, src/pages) opens the back office
 * with "Connexion réussie", and the back office leaves for the sign-in page with "Déconnexion réussie". Kept in
 * sessionStorage, read once; the key and the shape are the domain's (browser-handover.ts), which both sides import.
 */
import { keepToasts as keep, type Toast, takeToasts as take } from '@reformes/domain';

export function keepToasts(toasts: Toast[]): void {
  keep(sessionStorage, toasts);
}

/** The toasts left for this page, forgotten once read. */
export function takeToasts(): Toast[] {
  return take(sessionStorage);
}
