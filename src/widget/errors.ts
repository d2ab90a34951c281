/** The errors of publishable keys, widgets and the guest page; codes and messages in src/errors/registry.ts. */
import { apiError } from '../errors/registry.js';

export const widgetErrors = {
  operationNotAllowed: (operation: string) => apiError('SK720', { params: { operation } }),
  productNotListed: (product: string) => apiError('SK721', { params: { product } }),
  originNotAllowed: (origin: string) => apiError('SK722', { params: { origin } }),
  silentNotAllowed: () => apiError('SK646'),
  badRequest: (message: string) => apiError('SK725', { params: { message } }),
};
