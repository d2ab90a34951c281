/**
 * The dashboard's build: a single-page app served by `staykit serve` under /admin (src/dashboard). Built by
 * `npm ci` (prepare) and `npm run build:web` into dist/, which is not committed. JSX goes through Vite's own Oxc
 * transform (automatic runtime), so no framework plugin is needed.
 */
import { defineConfig } from 'vite';

export default defineConfig({
  base: '/admin/',
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
    rolldownOptions: {
      // Mantine marks its modules "use client" for React Server Components; a browser bundle has no use for it.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
});
