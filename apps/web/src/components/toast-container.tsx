import '@mantine/core/styles/Notification.layer.css';
import '@mantine/notifications/styles.layer.css';
import { Notifications } from '@mantine/notifications';

/** Loaded on demand by `Toasts` (notify.tsx). */
export default function ToastContainer() {
  return <Notifications position="top-right" autoClose={5000} />;
}
