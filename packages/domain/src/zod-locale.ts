import { z } from 'zod';

// Messages zod produces on its own (wrong type, bad number...) read in French on both sides. The domain's modules
// take `z` from here, not from 'zod', so that the setting comes with any schema a bundle keeps (package.json
// declares the domain free of side effects: a bare `import './zod-locale.ts'` in index.ts alone would be dropped).
z.config(z.locales.fr());

// In a browser, no compiled parsers: zod's probe for them calls `new Function`, which the app's CSP (no
// 'unsafe-eval') refuses and the browser reports. The server keeps them.
if ('document' in globalThis) z.config({ jitless: true });

export { z };
