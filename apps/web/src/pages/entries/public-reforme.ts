// The script of the page /accueil/reformes/:id (build/pages.ts): no React, no Mantine (issue 34).
import '../pages.css';
import { startPublicReforme } from '../public/public-reforme.ts';

void startPublicReforme();
