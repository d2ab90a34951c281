/**
 * The widget's script, served by Staykit at /widget.js (same origin, so the dashboard's CSP allows it), added to the
 * page once when a preview first needs it: it defines <staykit-widget>.
 */
import i18next from 'i18next';

let loading: Promise<void> | null = null;

export function loadWidgetScript(): Promise<void> {
  loading ??= new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = '/widget.js';
    script.onload = () => resolve();
    script.onerror = () => {
      loading = null;
      reject(new Error(i18next.t('units:preview.scriptFailed')));
    };
    document.head.append(script);
  });
  return loading;
}
