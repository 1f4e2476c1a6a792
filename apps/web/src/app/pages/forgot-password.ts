// The script of the page /auth/forget-password (build/pages.ts): no React, no Mantine (issue 34).
import '../public-pages.css';
import { startForgotPassword } from '../../features/auth/forgot-password-form.ts';

startForgotPassword();
