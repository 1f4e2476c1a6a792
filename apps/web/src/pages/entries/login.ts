// The script of the sign-in page (build/pages.ts): no React, no Mantine; the back office loads once signed in (issue 34).
import '../pages.css';
import { startLogin } from '../auth/login-form.ts';

startLogin();
