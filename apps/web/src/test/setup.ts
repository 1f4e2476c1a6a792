import '@testing-library/jest-dom/vitest';
import { notifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { leavePage } from '../session/leave-page.ts';
import { clearSession } from '../session/session.ts';

// Screens load lazily and answer through a fake fetch: on a loaded 2-core CI machine (server and web suites
// in parallel) a whole-app render can take several seconds, so waits allow 20 s before failing.
configure({ asyncUtilTimeout: 20_000 });

// jsdom lacks the layout APIs Mantine relies on.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string): MediaQueryList => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub;
window.HTMLElement.prototype.scrollIntoView = () => {};

// jsdom cannot load another document: leaving for a server page (issue 34) is recorded, not done.
beforeEach(() => {
  vi.spyOn(leavePage, 'to').mockImplementation(() => {});
});

afterEach(() => {
  vi.restoreAllMocks();
  sessionStorage.clear();
  cleanup();
  notifications.clean();
  notifications.cleanQueue();
  localStorage.clear();
  clearSession();
});
