import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { config as zodConfig } from 'zod/v4/core';
import { App } from './app/app.tsx';
import { createQueryClient, Providers } from './app/providers.tsx';
import { preloadScreens } from './app/routes.tsx';

// The forms' schemas run without zod's compiled parsers: probing for them calls `new Function`, which our CSP
// (no 'unsafe-eval') refuses, a violation in every browser console.
zodConfig({ jitless: true });

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
