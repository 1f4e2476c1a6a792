import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate, useRoutes } from 'react-router';
import { setSessionExpiredHandler } from '../api/client.ts';
import { routes } from './routes.tsx';

/**
 * The route table under a declarative router: the app uses none of the data router's loaders or actions, and
 * the data router alone weighs twice the rest of React Router in the public page's first download (issue 20).
 */
export function App() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(() => {
    setSessionExpiredHandler(() => {
      queryClient.clear();
      void navigate('/login', { replace: true });
    });
  }, [navigate, queryClient]);
  return useRoutes(routes);
}
