import { z } from 'zod';

// Messages zod produces on its own (wrong type, bad number...) read in French on both sides.
z.config(z.locales.fr());
