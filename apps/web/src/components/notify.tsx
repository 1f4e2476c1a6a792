import type { NotificationData } from '@mantine/notifications';
import type { Toast } from '@reformes/domain';
import { lazy, type ReactNode, Suspense, useSyncExternalStore } from 'react';

/** Spec §9: alert-style messages close after 1.5 s; ordinary toasts keep the 5 s default. */
export const ALERT_AUTO_CLOSE = 1500;

// Toasts load with the first toast, not with the first page: a visitor of the public list may never see one (issue 20).
const loadNotifications = () => import('@mantine/notifications');
const ToastContainer = lazy(() => import('./toast-container.tsx'));

let wanted = false;
/** The toasts of the last seconds, handed to the next page when the app leaves for a page of its own (app/routes.tsx). */
let recent: Array<{ toast: Toast; at: number }> = [];
const HAND_OVER_MS = 3000;
const HANDED_COLORS = ['green', 'red', 'yellow'] as const;
let sequence = 0;
const listeners = new Set<() => void>();

function show(data: NotificationData): string {
  const id = data.id ?? `toast-${++sequence}`;
  if (!wanted) {
    wanted = true;
    for (const listener of listeners) listener();
  }
  void loadNotifications().then(({ notifications }) => notifications.show({ ...data, id }));
  const color = HANDED_COLORS.find((handed) => handed === data.color);
  if (color && typeof data.message === 'string' && !data.loading) {
    const at = Date.now();
    const toast: Toast = { color, message: data.message };
    if (typeof data.title === 'string') toast.title = data.title;
    if (typeof data.autoClose === 'number') toast.autoClose = data.autoClose;
    recent = [...recent.filter((entry) => at - entry.at < HAND_OVER_MS), { toast, at }];
  }
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

/** The toasts shown in the last three seconds: the page the app leaves for shows them (session/flash.ts). */
export function recentToasts(): Toast[] {
  const now = Date.now();
  return recent.filter((entry) => now - entry.at < HAND_OVER_MS).map((entry) => entry.toast);
}

/** A toast handed over by the page before (session/flash.ts). */
export function showHandedToast({ color, title, message, autoClose }: Toast): void {
  show({ color, title, message, ...(autoClose ? { autoClose } : {}) });
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
