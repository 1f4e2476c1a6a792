// The script of the page /accueil (build/pages.ts): no React, no Mantine (issue 34).
import '../public-pages.css';
import { startPublicList } from '../../features/public/public-list.ts';

startPublicList();
