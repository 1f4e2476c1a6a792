// The script of the page /accueil (build/pages.ts): no React, no Mantine (issue 34).
import '../pages.css';
import { startPublicList } from '../public/public-list.ts';

startPublicList();
