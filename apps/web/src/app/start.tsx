/** The back office itself, started by main.tsx. */
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { showHandedToast } from '../components/notify.tsx';
import { takeToasts } from '../session/flash.ts';
import { App } from './app.tsx';
import { createQueryClient, Providers } from './providers.tsx';

const queryClient = createQueryClient();

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

// A transition lets React render the first screen in slices, giving the browser a turn every few milliseconds
// instead of one long task.
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
// What the page before said as it left ("Connexion réussie" from the sign-in page, issue 34).
for (const toast of takeToasts()) showHandedToast(toast);
