/**
 * The organization's profile: its name, default language, currency and time zone, its address (the seller on its
 * invoices), and how its e-mails look — the
 * logo (uploaded to the media store and saved at once; the one it replaces is deleted by the database) and the brand
 * colour, with a preview of an e-mail's beginning that follows the unsaved colour. Members who may not change the
 * organization read it (the navigation shows the page only to those who may: shell/pages.tsx).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, ColorInput, FileButton, Group, Loader, Paper, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { BRAND_COLOR_PATTERN } from '../../../../src/common/brand-color.js';
import { database, rowsOf, type Selected } from '../api/database';
import { uploadMedia } from '../api/media';
import { ErrorAlert } from '../common/ErrorAlert';
import { CURRENCIES, TIME_ZONES } from '../common/intl-choices';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { EmailHeaderPreview, type LogoMedia } from './EmailHeaderPreview';
import {
  ADDRESS_FIELDS, languageChoices, profileForm, profileProblems, profileUpdate, SELLER_FIELDS, withSetting,
  type OrganizationSettings, type ProfileForm, type SellerField,
} from './organization-profile';

const ORGANIZATION = 'id,name,language,currency,timezone,settings';
type Organization = Selected<'organizations', typeof ORGANIZATION>;
const LOGO = 'id,url,variants,width,height';

/** Colours offered beside the picker: dark enough for white text, or light enough for dark text. */
const SWATCHES = ['#1d4ed8', '#0f766e', '#15803d', '#b91c1c', '#7c3aed', '#be185d', '#c2410c', '#fde047', '#111827'];

export function OrganizationProfile() {
  const { t } = useTranslation('organization');
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
      <Title order={2}>{t('title')}</Title>
      <Text size="sm">{t('intro')}</Text>
      <ErrorAlert error={loaded.error} title={t('loadFailed')} />
      {loaded.loading && !loaded.data && <Loader size="sm" role="status" aria-label={t('loading')} />}
      {loaded.data && <ProfileEditor organization={loaded.data.organization} storedLogo={loaded.data.logo} />}
    </Stack>
  );
}

function ProfileEditor({ organization, storedLogo }: { organization: Organization; storedLogo: LogoMedia | null }) {
  const { t, i18n } = useTranslation('organization');
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
  const setSeller = (field: SellerField, value: string) => set('seller', { ...form.seller, [field]: value });
  const problem = (field: keyof typeof problems) => {
    const found = problems[field];
    return found && t(`problems.${found}`);
  };
  const sellerInput = (field: SellerField, description?: string) => (
    <TextInput key={field} label={t(`address.${field}`)} description={description} value={form.seller[field]} readOnly={!mayWrite}
      error={problem(field)} onChange={(event) => setSeller(field, event.currentTarget.value)} />
  );

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

  const nameProblem = problem('name');
  const colorProblem = problem('brandColor');
  const legalNameInput = sellerInput('legal_name', t('address.legalNameDescription'));
  const streetInput = sellerInput('street');
  const previewColor = BRAND_COLOR_PATTERN.test(form.brandColor) ? form.brandColor : null;
  return (
    <Stack>
      <Paper withBorder p="md" component="section" aria-label={t('profile')}>
        <Stack>
          <TextInput label={t('name.label')} value={form.name} readOnly={!mayWrite} error={nameProblem}
            description={t('name.description')} onChange={(event) => set('name', event.currentTarget.value)} />
          <Select label={t('language.label')} searchable data={languageChoices(form.language, i18n.language)} value={form.language} readOnly={!mayWrite}
            allowDeselect={false} description={t('language.description')}
            onChange={(language) => language && set('language', language)} />
          <Group grow align="flex-start">
            <Select label={t('currency.label')} searchable data={CURRENCIES} value={form.currency} readOnly={!mayWrite} allowDeselect={false}
              description={t('currency.description')} onChange={(currency) => currency && set('currency', currency)} />
            <Select label={t('timezone.label')} searchable data={TIME_ZONES} value={form.timezone} readOnly={!mayWrite} allowDeselect={false}
              description={t('timezone.description')} onChange={(zone) => zone && set('timezone', zone)} />
          </Group>
          <ColorInput label={t('brandColor.label')} format="hex" fixOnBlur={false} eyeDropperButtonProps={{ 'aria-label': t('brandColor.eyeDropper') }} swatches={SWATCHES} value={form.brandColor} readOnly={!mayWrite}
            disallowInput={!mayWrite} withPicker={mayWrite} error={colorProblem} placeholder={t('brandColor.placeholder')}
            description={t('brandColor.description')}
            onChange={(color) => set('brandColor', color)} />
        </Stack>
      </Paper>
      <Paper withBorder p="md" component="section" aria-label={t('address.title')}>
        <Stack>
          <Title order={3} size="h4">{t('address.title')}</Title>
          <Text size="sm">{t('address.intro')}</Text>
          {legalNameInput}
          {streetInput}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {ADDRESS_FIELDS.filter((field) => field !== 'street').map((field) => sellerInput(field))}
            {SELLER_FIELDS.filter((field) => field !== 'legal_name').map((field) => sellerInput(field))}
          </SimpleGrid>
        </Stack>
      </Paper>
      {mayWrite && (
        <Stack>
          <ErrorAlert error={error} title={t('saveFailed')} />
          <Group>
            <Button onClick={save} loading={busy}>{t('save')}</Button>
            {saved && <Text size="sm" role="status">{t('saved')}</Text>}
          </Group>
        </Stack>
      )}
      <Paper withBorder p="md" component="section" aria-label={t('logo.title')}>
        <Stack>
          <Title order={3} size="h4">{t('logo.title')}</Title>
          <Text size="sm">{t('logo.text')}</Text>
          <ErrorAlert error={logoError} title={t('logo.failed')} />
          {hasLogo && !logo && <Text size="sm" c="dimmed">{t('logo.hidden')}</Text>}
          {!hasLogo && <Text size="sm" c="dimmed">{t('logo.none')}</Text>}
          {mayUpload && (
            <Group>
              <FileButton onChange={upload} accept="image/png,image/jpeg,image/webp,image/avif,image/heic">
                {(props) => <Button variant="default" loading={logoBusy} {...props}>{hasLogo ? t('logo.replace') : t('logo.upload')}</Button>}
              </FileButton>
              {hasLogo && <Button variant="subtle" color="red" disabled={logoBusy} onClick={() => changeLogo(() => writeLogo(null, null))}>{t('logo.remove')}</Button>}
            </Group>
          )}
        </Stack>
      </Paper>
      <EmailHeaderPreview name={form.name.trim() || organization.name} color={previewColor} logo={logo} />
    </Stack>
  );
}
