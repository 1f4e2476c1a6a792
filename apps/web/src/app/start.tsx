/** The app itself, started by main.tsx. */
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './app.tsx';
import { createQueryClient, Providers } from './providers.tsx';
import { preloadScreens } from './routes.tsx';

const queryClient = createQueryClient();

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

// Over a page that holds a drawn frame (app/prerender.tsx), the screen's code first (the page preloads it), then one
// render: no "Chargement..." between the frame and the screen. Elsewhere "Chargement..." shows while the code loads.
if (container.hasChildNodes()) await preloadScreens(window.location.pathname);
// A transition lets React render the first screen in slices, giving the browser a turn every few milliseconds
// instead of one long task a phone would spend unresponsive (Lighthouse's "Total Blocking Time").
const root = createRoot(container);
startTransition(() =>
  root.render(
    <StrictMode>
      <Providers queryClient={queryClient}>
        <BrowserRouter>
          <App />
        </BrowserRouter>
      </Providers>
    </StrictMode>,
  ),
);
