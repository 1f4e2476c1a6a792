/** The chart's three lines, told apart by colour and by dash (WCAG 1.4.1), each 3:1 or more against white. */
export const SERIES = [
  { name: 'realise', label: 'Valeur réalisée', color: 'blue.7', css: 'var(--mantine-color-blue-7)', dashed: undefined },
  { name: 'cible', label: 'Valeur cible', color: 'green.8', css: 'var(--mantine-color-green-8)', dashed: '8 4' },
  { name: 'reference', label: 'Valeur de référence', color: 'gray.7', css: 'var(--mantine-color-gray-7)', dashed: '3 4' },
] as const;

export const CHART_HEIGHT = 240;
