/**
 * nodemailer, imported when the first message is sent rather than when the server starts (~3 MiB of heap and
 * 0.07 s of CPU that a server whose automations send nothing never needs).
 */
import type nodemailer from 'nodemailer';

let loading: Promise<typeof nodemailer> | undefined;

export function loadNodemailer(): Promise<typeof nodemailer> {
  loading ??= import('nodemailer').then((module) => module.default);
  return loading;
}
