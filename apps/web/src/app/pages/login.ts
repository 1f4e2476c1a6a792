// The script of the sign-in page (build/pages.ts): no React, no Mantine; the back office loads once signed in (issue 34).
import '../public-pages.css';
import { startLogin } from '../../features/auth/login-form.ts';

startLogin();
