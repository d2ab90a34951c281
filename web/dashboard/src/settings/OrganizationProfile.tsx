/**
 * The organization's profile: its name, default language, currency and time zone, and how its e-mails look — the
 * logo (uploaded to the media store and saved at once; the one it replaces is deleted by the database) and the brand
 * colour, with a preview of an e-mail's beginning that follows the unsaved colour. Members who may not change the
 * organization read it (the navigation shows the page only to those who may: shell/pages.tsx).
 */
import { useState } from 'react';
import { Button, ColorInput, FileButton, Group, Loader, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { BRAND_COLOR_PATTERN } from '../../../../src/common/brand-color.js';
import { database, rowsOf, type Selected } from '../api/database';
import { uploadMedia } from '../api/media';
import { ErrorAlert } from '../common/ErrorAlert';
import { CURRENCIES, TIME_ZONES } from '../common/intl-choices';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { EmailHeaderPreview, type LogoMedia } from './EmailHeaderPreview';
import { languageChoices, profileForm, profileProblems, profileUpdate, withSetting, type OrganizationSettings, type ProfileForm } from './organization-profile';

const ORGANIZATION = 'id,name,language,currency,timezone,settings';
type Organization = Selected<'organizations', typeof ORGANIZATION>;
const LOGO = 'id,url,variants,width,height';

/** Colours offered beside the picker: dark enough for white text, or light enough for dark text. */
const SWATCHES = ['#1d4ed8', '#0f766e', '#15803d', '#b91c1c', '#7c3aed', '#be185d', '#c2410c', '#fde047', '#111827'];

export function OrganizationProfile() {
  const { session, can } = useWorkspace();
  const loaded = useLoad(async () => {
    const organization = rowsOf(await database.from('organizations').select(ORGANIZATION).eq('id', session.organization.id).single());
    const logoId = organization.settings.logo_media_id;
    // The logo's copies need `media` read; without it the page works without the picture.
    const logo = typeof logoId === 'string' && can('media')
      ? rowsOf(await database.from('media').select(LOGO).eq('id', logoId)).at(0) ?? null : null;
    return { organization, logo };
  }, [session.organization.id, can]);
  return (
    <Stack maw={760}>
      <Title order={2}>Organization</Title>
      <Text size="sm">
        Your organization&apos;s name, the defaults of new units and of how the dashboard writes dates and money, and
        the logo and colour of the e-mails guests receive.
      </Text>
      <ErrorAlert error={loaded.error} title="The organization could not be loaded" />
      {loaded.loading && !loaded.data && <Loader size="sm" role="status" aria-label="Loading the organization" />}
      {loaded.data && <ProfileEditor organization={loaded.data.organization} storedLogo={loaded.data.logo} />}
    </Stack>
  );
}

function ProfileEditor({ organization, storedLogo }: { organization: Organization; storedLogo: LogoMedia | null }) {
  const { can } = useWorkspace();
  const mayWrite = can('organizations', 'write');
  const mayUpload = mayWrite && can('media', 'write');
  // The settings as last read or written: what each save keeps of the other settings.
  const [settings, setSettings] = useState<OrganizationSettings>(organization.settings);
  const [form, setForm] = useState<ProfileForm>(profileForm(organization));
  const [logo, setLogo] = useState(storedLogo);
  const [problems, setProblems] = useState<ReturnType<typeof profileProblems>>({});
  const [error, setError] = useState<unknown>(null);
  const [logoError, setLogoError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [logoBusy, setLogoBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const hasLogo = typeof settings.logo_media_id === 'string';

  const set = <Field extends keyof ProfileForm>(field: Field, value: ProfileForm[Field]) => {
    setSaved(false);
    setForm((previous) => ({ ...previous, [field]: value }));
  };

  const save = async () => {
    setError(null);
    setSaved(false);
    const found = profileProblems(form);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    const update = profileUpdate(form, settings);
    setBusy(true);
    try {
      rowsOf(await database.from('organizations').update(update).eq('id', organization.id));
      setSettings(update.settings);
      setSaved(true);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  /** Writes the logo setting (null removes it) and shows `shown` once the database took it. */
  const writeLogo = async (mediaId: string | null, shown: LogoMedia | null) => {
    const next = withSetting(settings, 'logo_media_id', mediaId);
    rowsOf(await database.from('organizations').update({ settings: next }).eq('id', organization.id));
    setSettings(next);
    setLogo(shown);
  };
  const changeLogo = async (work: () => Promise<void>) => {
    setLogoError(null);
    setLogoBusy(true);
    try {
      await work();
    } catch (failure) {
      setLogoError(failure);
    } finally {
      setLogoBusy(false);
    }
  };
  const upload = (file: File | null) => file && changeLogo(async () => {
    const row = await uploadMedia(file, () => undefined);
    await writeLogo(row.id, row);
  });

  const previewColor = BRAND_COLOR_PATTERN.test(form.brandColor) ? form.brandColor : null;
  return (
    <Stack>
      <Paper withBorder p="md" component="section" aria-label="Profile">
        <Stack>
          <ErrorAlert error={error} title="The organization was not saved" />
          <TextInput label="Name" value={form.name} readOnly={!mayWrite} error={problems.name}
            description="Shown to guests in e-mails, the widget and the booking pages." onChange={(event) => set('name', event.currentTarget.value)} />
          <Select label="Default language" searchable data={languageChoices(form.language)} value={form.language} readOnly={!mayWrite}
            allowDeselect={false} description="Guests whose language is unknown read this one; the dashboard writes dates in it."
            onChange={(language) => language && set('language', language)} />
          <Group grow align="flex-start">
            <Select label="Currency" searchable data={CURRENCIES} value={form.currency} readOnly={!mayWrite} allowDeselect={false}
              description="Of new units (each unit keeps its own)." onChange={(currency) => currency && set('currency', currency)} />
            <Select label="Time zone" searchable data={TIME_ZONES} value={form.timezone} readOnly={!mayWrite} allowDeselect={false}
              description="Of new units, and the dashboard's clock." onChange={(zone) => zone && set('timezone', zone)} />
          </Group>
          <ColorInput label="Brand colour" format="hex" fixOnBlur={false} eyeDropperButtonProps={{ 'aria-label': 'Pick a colour from the screen' }} swatches={SWATCHES} value={form.brandColor} readOnly={!mayWrite}
            disallowInput={!mayWrite} withPicker={mayWrite} error={problems.brandColor} placeholder="Staykit's blue"
            description="The bar with your name and the button in e-mails; the text on it is white or dark, whichever reads better. Empty: Staykit's blue."
            onChange={(color) => set('brandColor', color)} />
          {mayWrite && (
            <Group>
              <Button onClick={save} loading={busy}>Save organization</Button>
              {saved && <Text size="sm" role="status">Organization saved. Reload the page to see dates and money in the new defaults.</Text>}
            </Group>
          )}
        </Stack>
      </Paper>
      <Paper withBorder p="md" component="section" aria-label="Logo">
        <Stack>
          <Title order={3} size="h4">Logo</Title>
          <Text size="sm">
            Shown at the top of every e-mail, on white, at most 240 pixels wide and 64 high. A PNG&apos;s transparent
            parts become white. A new logo is saved at once and replaces the old one.
          </Text>
          <ErrorAlert error={logoError} title="The logo was not changed" />
          {hasLogo && !logo && <Text size="sm" c="dimmed">A logo is set (reading images needs the media permission to show it).</Text>}
          {!hasLogo && <Text size="sm" c="dimmed">No logo: e-mails begin with your name.</Text>}
          {mayUpload && (
            <Group>
              <FileButton onChange={upload} accept="image/png,image/jpeg,image/webp,image/avif,image/heic">
                {(props) => <Button variant="default" loading={logoBusy} {...props}>{hasLogo ? 'Replace logo' : 'Upload logo'}</Button>}
              </FileButton>
              {hasLogo && <Button variant="subtle" color="red" disabled={logoBusy} onClick={() => changeLogo(() => writeLogo(null, null))}>Remove logo</Button>}
            </Group>
          )}
        </Stack>
      </Paper>
      <EmailHeaderPreview name={form.name.trim() || organization.name} color={previewColor} logo={logo} />
    </Stack>
  );
}
