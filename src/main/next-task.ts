/**
 * A point in the app's start where the browser gets its main thread back (issue 27). The app's
 * modules are evaluated in the order src/main/browser.tsx imports them, in one task until a module
 * awaits at its top level: this one waits for a new task, so the modules imported before it (the
 * core: the container, the adapters and their answer schemas) and those after it (React, the
 * router and the pages) are evaluated in two tasks, neither of them long enough to hold up input.
 */
await new Promise<void>((resolve) => setTimeout(resolve, 0));

export {};
