// The render worker where the server runs from TypeScript (tests, `npm run dev`): a worker thread
// gets no loader from its parent, so it registers tsx itself. The built server loads
// dist/server/render-worker.mjs instead (scripts/build-server.mjs).
import { register } from 'tsx/esm/api';

register();
const worker = await import('./render-worker.ts');
export default worker.default;
