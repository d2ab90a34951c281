/**
 * nodemailer, imported when the first message is sent rather than when the server starts (~16 MiB and 0.07 s
 * of CPU to import into a bare Node process, which a server whose automations send nothing never needs).
 */
import type nodemailer from 'nodemailer';

let loading: Promise<typeof nodemailer> | undefined;

export function loadNodemailer(): Promise<typeof nodemailer> {
  loading ??= import('nodemailer').then((module) => module.default);
  return loading;
}
