/** Start, step 2 (main.tsx): React and its DOM renderer, evaluated in a task of their own. */
export { StrictMode, startTransition } from 'react';
export { createRoot } from 'react-dom/client';
