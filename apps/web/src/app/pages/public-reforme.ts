// The script of the page /accueil/reformes/:id (build/pages.ts): no React, no Mantine (issue 34).
import '../public-pages.css';
import { startPublicReforme } from '../../features/public/public-reforme.ts';

void startPublicReforme();
