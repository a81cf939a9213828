// `npm start`: build what is missing or stale, then run the server in this same process. One
// process, no shell between npm and the server: a stop signal reaches the server itself, and npm
// waits for it to finish its graceful stop and passes on its exit code.
await import('./ensure-build.mjs');
await import('../dist/server/main.mjs');
