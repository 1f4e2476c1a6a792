import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './app/app.tsx';
import { createQueryClient, Providers } from './app/providers.tsx';
import { preloadScreens } from './app/routes.tsx';

const queryClient = createQueryClient();

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

// Over a page that holds a drawn frame (app/prerender.tsx), the screen's code first (the page preloads it), then one
// render: no "Chargement..." between the frame and the screen. Elsewhere "Chargement..." shows while the code loads.
if (container.hasChildNodes()) await preloadScreens(window.location.pathname);
createRoot(container).render(
  <StrictMode>
    <Providers queryClient={queryClient}>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </Providers>
  </StrictMode>,
);
