/** E-mail templates: edit subject and body, and preview what a template sends for a booking (nothing is sent). */
import { useState } from 'react';
import { Button, Code, Group, Loader, Paper, Select, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { database, innerJoined, rowsOf, type Selected } from '../api/database';
import { requestJson } from '../api/http';
import { ErrorAlert } from '../common/ErrorAlert';
import { localized } from '../common/format';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';

const TEMPLATE = 'id,subject,body,trigger,status,type';
type Template = Selected<'email_templates', typeof TEMPLATE>;

interface Preview {
  to: string;
  from: string;
  subject: string;
  body: string;
  language: string;
}

export function EmailTemplates() {
  const { locale } = useWorkspace();
  const templates = useLoad(async () => rowsOf(await database.from('email_templates').select(TEMPLATE).order('created_at')), []);
  const [chosen, setChosen] = useState<string | null>(null);
  const template = templates.data?.find((row) => row.id === chosen) ?? templates.data?.[0];

  return (
    <Stack>
      <Title order={2}>E-mail templates</Title>
      <ErrorAlert error={templates.error} title="The templates could not be loaded" />
      {templates.loading && !templates.data && <Loader size="sm" role="status" aria-label="Loading templates" />}
      {templates.data?.length === 0 && <Text c="dimmed">No templates yet.</Text>}
      {templates.data && templates.data.length > 0 && (
        <Select label="Template" value={template?.id ?? null} onChange={setChosen} maw={480}
          data={templates.data.map((row) => ({ value: row.id, label: `${localized(row.subject, locale) || '(no subject)'} — ${row.trigger ?? row.type}` }))} />
      )}
      {template && <TemplateEditor key={template.id} template={template} onSaved={templates.reload} />}
    </Stack>
  );
}

function TemplateEditor({ template, onSaved }: { template: Template; onSaved: () => void }) {
  const { can, format } = useWorkspace();
  const [subject, setSubject] = useState(template.subject.default ?? '');
  const [body, setBody] = useState(template.body.default ?? '');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const bookings = useLoad(async () => innerJoined(rowsOf(await database.from('calendar_events').select('start_date,bookings!inner(id,reference)')
    .eq('type', 'booking').order('start_date', { ascending: false }).limit(50)), 'bookings'), []);
  const [bookingId, setBookingId] = useState<string | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);

  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      rowsOf(await database.from('email_templates').update({ subject: { ...template.subject, default: subject }, body: { ...template.body, default: body } }).eq('id', template.id));
      onSaved();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const showPreview = async () => {
    setError(null);
    try {
      setPreview(await requestJson<Preview>('POST', '/v1/template-preview', { booking_id: bookingId, email_template_id: template.id }));
    } catch (failure) {
      setError(failure);
    }
  };

  return (
    <Paper withBorder p="md">
      <Stack>
        <ErrorAlert error={error} title="Template" />
        <TextInput label="Subject" value={subject} onChange={(e) => setSubject(e.currentTarget.value)} readOnly={!can('email_templates', 'write')} />
        <Textarea label="Body" autosize minRows={6} value={body} onChange={(e) => setBody(e.currentTarget.value)} readOnly={!can('email_templates', 'write')} />
        <Group align="flex-end" wrap="wrap">
          {can('email_templates', 'write') && <Button onClick={save} loading={busy}>Save</Button>}
          <Select label="Preview for booking" placeholder="Choose a booking" searchable value={bookingId} onChange={setBookingId} w={260}
            data={(bookings.data ?? []).map((row) => ({ value: row.bookings.id, label: `${row.bookings.reference} · ${format.date(row.start_date)}` }))} />
          <Button variant="default" onClick={showPreview} disabled={!bookingId}>Preview</Button>
        </Group>
        {preview && (
          <Paper withBorder p="sm" aria-label="Preview" component="section">
            <Text size="sm">To {preview.to} · from {preview.from} · {preview.language}</Text>
            <Text fw={600}>{preview.subject}</Text>
            <Code block style={{ whiteSpace: 'pre-wrap' }}>{preview.body}</Code>
          </Paper>
        )}
      </Stack>
    </Paper>
  );
}
