/** The widget's element (web/widget) as the dashboard renders it for a unit's preview: the attributes it uses. */
import type { DetailedHTMLProps, HTMLAttributes } from 'react';

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'staykit-widget': DetailedHTMLProps<HTMLAttributes<HTMLElement>, HTMLElement> & { preview: string };
    }
  }
}
