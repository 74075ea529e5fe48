import '@testing-library/jest-dom/vitest';
import { notifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeAll, vi } from 'vitest';

// findBy* and waitFor give up after 1 s by default: a web test that shares a loaded two-core machine
// with the integration tests may take longer to render; 5 s still fails a wrong screen quickly.
configure({ asyncUtilTimeout: 5_000 });

// jsdom lacks these browser APIs that Mantine uses.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: vi.fn().mockImplementation((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: vi.fn(),
    removeListener: vi.fn(),
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
    dispatchEvent: vi.fn(),
  })),
});
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub as unknown as typeof ResizeObserver;
window.HTMLElement.prototype.scrollIntoView = () => {};
// Mantine's autosizing Textarea listens for web fonts.
if (!('fonts' in document))
  Object.defineProperty(document, 'fonts', { value: { addEventListener() {}, removeEventListener() {} } });

// The files of a worker share one window (isolate: false in vitest.config.ts): each starts as a page
// freshly opened at /, with nothing left by the file before (React Testing Library's cleanup takes
// what a test rendered; the body keeps Mantine's shared portal node, which Mantine holds on to).
beforeAll(() => {
  window.history.replaceState(null, '', '/');
  localStorage.clear();
  sessionStorage.clear();
  document.head.querySelectorAll('script[type="application/json"]').forEach((e) => e.remove());
  document.title = '';
});

afterEach(() => {
  cleanup();
  // Toasts live in a store of their own: one test's toast must not show in the next.
  notifications.clean();
  vi.unstubAllGlobals();
});
