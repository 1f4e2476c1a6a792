import { notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';

/** Spec §9: alert-style messages close after 1.5 s; ordinary toasts keep the 5 s default. */
export const ALERT_AUTO_CLOSE = 1500;

export function notifySuccess(message: ReactNode, title?: string): void {
  notifications.show({ color: 'green', title, message });
}

export function notifyError(message: ReactNode, title?: string): void {
  notifications.show({ color: 'red', title, message });
}

export function alertSuccess(message: ReactNode, title?: string): void {
  notifications.show({ color: 'green', title, message, autoClose: ALERT_AUTO_CLOSE });
}

export function notifyWarning(message: ReactNode, title?: string): void {
  notifications.show({ color: 'yellow', title, message });
}

/** A toast that stays while some work runs; call the returned function when it ends. */
export function notifyRunning(message: ReactNode): () => void {
  const id = notifications.show({ color: 'yellow', message, loading: true, autoClose: false, withCloseButton: false });
  return () => notifications.hide(id);
}
