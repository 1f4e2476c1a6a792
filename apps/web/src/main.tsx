import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { setSessionExpiredHandler } from './api/client.ts';
import { createQueryClient, Providers } from './app/providers.tsx';
import { routes } from './app/routes.tsx';

const router = createBrowserRouter(routes);
const queryClient = createQueryClient();

setSessionExpiredHandler(() => {
  queryClient.clear();
  void router.navigate('/login', { replace: true });
});

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

createRoot(container).render(
  <StrictMode>
    <Providers queryClient={queryClient}>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
