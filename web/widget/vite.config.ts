/**
 * The booking widget's build: one classic script, dist/widget.js, that defines the <staykit-widget> element. Served
 * by `staykit serve` at /widget.js (src/widget/pages.ts). A classic script (IIFE), not a module, so a page on any
 * origin can include it with a plain <script src> and no CORS. Built by `npm ci` (prepare) and `npm run build:web`.
 */
import { defineConfig } from 'vite';

export default defineConfig({
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2020',
    lib: { entry: 'src/widget.ts', formats: ['iife'], name: 'StaykitWidget', fileName: () => 'widget.js' },
  },
});
