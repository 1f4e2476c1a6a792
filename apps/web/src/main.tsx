import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { config as zodConfig } from 'zod/v4/core';
import { App } from './app/app.tsx';
import { createQueryClient, Providers } from './app/providers.tsx';

// The forms' schemas run without zod's compiled parsers: probing for them calls `new Function`, which our CSP
// (no 'unsafe-eval') refuses, a violation in every browser console.
zodConfig({ jitless: true });

const queryClient = createQueryClient();

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

createRoot(container).render(
  <StrictMode>
    <Providers queryClient={queryClient}>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </Providers>
  </StrictMode>,
);
