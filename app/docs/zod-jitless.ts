import { z } from 'zod';

// Scalar builds zod schemas as its modules load, and zod probes for eval (`new Function`) to
// compile their parsers; the page's Content-Security-Policy refuses eval, so the probe would only
// log a violation. Without JIT, zod interprets its schemas and never asks (docs/security.md).
// Imported before Scalar, so this runs before any of its schemas is built.
z.config({ jitless: true });
