// The script of the page /auth/forget-password (build/pages.ts): no React, no Mantine (issue 34).
import '../pages.css';
import { startForgotPassword } from '../auth/forgot-password-form.ts';

startForgotPassword();
