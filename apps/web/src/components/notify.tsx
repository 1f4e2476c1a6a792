import type { NotificationData } from '@mantine/notifications';
import { lazy, type ReactNode, Suspense, useSyncExternalStore } from 'react';

/** Spec §9: alert-style messages close after 1.5 s; ordinary toasts keep the 5 s default. */
export const ALERT_AUTO_CLOSE = 1500;

// Toasts load with the first toast, not with the first page: a visitor of the public list may never see one (issue 20).
const loadNotifications = () => import('@mantine/notifications');
const ToastContainer = lazy(() => import('./toast-container.tsx'));

let wanted = false;
let sequence = 0;
const listeners = new Set<() => void>();

function show(data: NotificationData): string {
  const id = data.id ?? `toast-${++sequence}`;
  if (!wanted) {
    wanted = true;
    for (const listener of listeners) listener();
  }
  void loadNotifications().then(({ notifications }) => notifications.show({ ...data, id }));
  return id;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Where toasts appear (top-right, 5 s), mounted once the first one is asked for. */
export function Toasts() {
  const isWanted = useSyncExternalStore(
    subscribe,
    () => wanted,
    () => false,
  );
  return isWanted ? (
    <Suspense fallback={null}>
      <ToastContainer />
    </Suspense>
  ) : null;
}

export function notifySuccess(message: ReactNode, title?: string): void {
  show({ color: 'green', title, message });
}

export function notifyError(message: ReactNode, title?: string): void {
  show({ color: 'red', title, message });
}

export function alertSuccess(message: ReactNode, title?: string): void {
  show({ color: 'green', title, message, autoClose: ALERT_AUTO_CLOSE });
}

export function notifyWarning(message: ReactNode, title?: string): void {
  show({ color: 'yellow', title, message });
}

/** A toast that stays while some work runs; call the returned function when it ends. */
export function notifyRunning(message: ReactNode): () => void {
  const id = show({ color: 'yellow', message, loading: true, autoClose: false, withCloseButton: false });
  return () => void loadNotifications().then(({ notifications }) => notifications.hide(id));
}
