/**
 * Start, step 3 (main.tsx): the router and the query client's libraries, evaluated in a task of their
 * own (with the app's modules, step 4, they were one task of ~60 ms at CPU ×4).
 */
export { QueryClient, QueryClientProvider } from '@tanstack/react-query';
export { createBrowserRouter, RouterProvider } from 'react-router';
