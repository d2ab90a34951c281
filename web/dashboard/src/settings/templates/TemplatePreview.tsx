/**
 * The live preview of the template being edited: the unsaved draft rendered for a chosen booking
 * (`POST /v1/template-preview`), again a moment after each change, shown as the guest's mail program would show it —
 * the HTML in a sandboxed frame that runs no script and reaches nothing of this page (`sandbox=""`), the text below —
 * and a test-send of the same to the signed-in member's own address (`POST /v1/template-test-send`).
 * A refusal of the draft is handed to the editor, which shows it next to the field.
 */
import { useEffect, useState } from 'react';
import { Alert, Button, Code, Group, Loader, Paper, Select, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { database, innerJoined, rowsOf } from '../../api/database';
import { requestJson } from '../../api/http';
import { ErrorAlert } from '../../common/ErrorAlert';
import { useLoad } from '../../common/use-load';
import { useWorkspace } from '../../shell/context';
import type { TemplateDraft } from './template-form';

/** The answer of `POST /v1/template-preview` (its route definition: src/automations/bodies.ts). */
interface Preview {
  to: string | null;
  from: string;
  language: string;
  subject: string;
  body: string;
  html: string;
  attachments: { filename: string }[];
}

/** Wait after the last change before rendering (ms): a preview per pause in typing, not per key. */
const DEBOUNCE_MS = 400;

export interface TemplatePreviewProps {
  templateId: string | null;
  draft: TemplateDraft;
  /** Called with the preview's refusal of the draft, or null once it renders. */
  onProblem: (error: unknown) => void;
  mayTestSend: boolean;
}

export function TemplatePreview({ templateId, draft, onProblem, mayTestSend }: TemplatePreviewProps) {
  const { format } = useWorkspace();
  const { t } = useTranslation('templates');
  const bookings = useLoad(async () => innerJoined(rowsOf(await database.from('calendar_events').select('start_date,bookings!inner(id,reference)')
    .eq('type', 'booking').order('start_date', { ascending: false }).limit(50)), 'bookings'), []);
  const [chosen, setChosen] = useState<string | null>(null);
  const bookingId = chosen ?? bookings.data?.[0]?.bookings.id ?? null;
  const [preview, setPreview] = useState<Preview | null>(null);
  const [rendering, setRendering] = useState(false);
  const [sent, setSent] = useState<{ to: string; subject: string } | null>(null);
  const [sendError, setSendError] = useState<unknown>(null);
  const [sending, setSending] = useState(false);

  const request = bookingId ? { booking_id: bookingId, email_template_id: templateId, draft } : null;
  const requestKey = JSON.stringify(request);
  useEffect(() => {
    if (!request) return undefined;
    let current = true;
    setRendering(true);
    const timer = setTimeout(() => {
      requestJson<Preview>('POST', '/v1/template-preview', request).then(
        (answer) => { if (current) { setPreview(answer); onProblem(null); } },
        (error: unknown) => { if (current) onProblem(error); },
      ).finally(() => current && setRendering(false));
    }, DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
    // Keyed by the request's JSON: a new object with the same fields renders nothing again.
  }, [requestKey]);

  const sendTest = async () => {
    setSending(true);
    setSent(null);
    setSendError(null);
    try {
      setSent(await requestJson<{ to: string; subject: string }>('POST', '/v1/template-test-send', request));
    } catch (failure) {
      setSendError(failure);
    } finally {
      setSending(false);
    }
  };

  return (
    <Paper withBorder p="sm" component="section" aria-label={t('preview.region')}>
      <Stack gap="sm">
        <Group align="flex-end" wrap="wrap">
          <Select label={t('preview.forBooking')} placeholder={t('preview.chooseBooking')} searchable value={bookingId} onChange={setChosen} w={260} allowDeselect={false}
            data={(bookings.data ?? []).map((row) => ({ value: row.bookings.id, label: `${row.bookings.reference} · ${format.date(row.start_date)}` }))} />
          {mayTestSend && <Button variant="default" onClick={sendTest} loading={sending} disabled={!bookingId}>{t('preview.sendTest')}</Button>}
          {rendering && <Loader size="xs" role="status" aria-label={t('preview.rendering')} />}
        </Group>
        <ErrorAlert error={bookings.error ?? sendError} title={t('preview.region')} />
        {sent && <Alert color="green" role="status" title={t('preview.testSent')}>{t('preview.testSentText', { subject: sent.subject, to: sent.to })}</Alert>}
        {bookings.data?.length === 0 && <Text c="dimmed" size="sm">{t('preview.noBookings')}</Text>}
        {preview && (
          <>
            <Text size="sm">{t('preview.header', { to: preview.to ?? t('preview.noGuestEmail'), from: preview.from, language: preview.language })}</Text>
            <Text fw={600} aria-label={t('preview.subject')}>{preview.subject}</Text>
            {preview.attachments.length > 0 && <Text size="sm">{t('preview.attached', { files: preview.attachments.map((file) => file.filename).join(', ') })}</Text>}
            <iframe title={t('preview.html')} sandbox="" srcDoc={preview.html} style={{ width: '100%', height: 520, border: '1px solid var(--mantine-color-gray-3)', background: 'white' }} />
            <Text size="sm" fw={600}>{t('preview.text')}</Text>
            <Code block style={{ whiteSpace: 'pre-wrap' }} aria-label={t('preview.text')}>{preview.body}</Code>
          </>
        )}
      </Stack>
    </Paper>
  );
}
