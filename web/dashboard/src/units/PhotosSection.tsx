/**
 * A unit's photos: drop or choose several images, each uploaded to POST /v1/media with its own progress bar, then
 * shown as thumbnails (from the copies Staykit made) to reorder, make the cover, describe per language (alt text) or
 * remove. "Save photos" writes the list to `products.images`; the database checks it (400 SK765 / 404 SK766).
 */
import { useState, type DragEvent } from 'react';
import { Button, Card, FileButton, Group, Image, Progress, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { database, rowsOf } from '../api/database';
import type { ProductImage } from '../api/json-columns';
import { uploadMedia, variantFor, type Media } from '../api/media';
import { ErrorAlert } from '../common/ErrorAlert';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { TEXT_LANGUAGES } from './language-texts';
import { addPhoto, movePhoto, removePhoto, setCover } from './photo-list';
import { useLanguageName } from '../common/language-name';

type Thumbnail = Pick<Media, 'id' | 'url' | 'variants' | 'dominant_color' | 'filename'>;

interface Upload {
  id: number;
  name: string;
  progress: number;
  error: unknown;
}

export function PhotosSection({ unitId, images: stored, onSaved }: { unitId: string; images: ProductImage[]; onSaved: () => void }) {
  const { can } = useWorkspace();
  const { t } = useTranslation(['units', 'common']);
  const languageName = useLanguageName();
  const mayWrite = can('products', 'write') && can('media', 'write');
  const [images, setImages] = useState(stored);
  const [uploaded, setUploaded] = useState<Thumbnail[]>([]);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [dragging, setDragging] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const storedIds = stored.map((image) => image.media_id).join(',');
  // Thumbnails need `media` read; without it the list (and its alt texts) still shows.
  const media = useLoad(async () => stored.length === 0 || !can('media') ? [] : rowsOf(await database.from('media')
    .select('id,url,variants,dominant_color,filename').in('id', stored.map((image) => image.media_id))), [storedIds, can]);
  const thumbnails = new Map([...(media.data ?? []), ...uploaded].map((row) => [row.id, row]));
  const changed = JSON.stringify(images) !== JSON.stringify(stored);

  const upload = (files: File[]) => {
    for (const file of files) {
      const id = Math.random();
      setUploads((list) => [...list, { id, name: file.name, progress: 0, error: null }]);
      const update = (change: Partial<Upload>) => setUploads((list) => list.map((item) => (item.id === id ? { ...item, ...change } : item)));
      uploadMedia(file, (progress) => update({ progress })).then((row) => {
        setUploaded((list) => [...list, row]);
        setImages((list) => addPhoto(list, row.id));
        setUploads((list) => list.filter((item) => item.id !== id));
      }, (failure: unknown) => update({ error: failure }));
    }
  };
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    upload([...event.dataTransfer.files].filter((file) => file.type.startsWith('image/') || file.type === ''));
  };
  const save = async () => {
    setBusy(true);
    setError(null);
    setSaved(false);
    try {
      rowsOf(await database.from('products').update({ images }).eq('id', unitId));
      setSaved(true);
      onSaved();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const setAlt = (index: number, language: string, text: string) =>
    setImages(images.map((image, at) => (at === index ? { ...image, alt: { ...image.alt, [language]: text } } : image)));

  return (
    <Card withBorder component="section" aria-label={t('photos.title')}>
      <Stack>
        <Title order={3} size="h4">{t('photos.title')}</Title>
        <ErrorAlert error={media.error ?? error} title={t('photos.title')} />
        {mayWrite && (
          <Stack align="center" gap="xs" p="lg" aria-label={t('photos.dropZone')}
            onDragOver={(event) => { event.preventDefault(); setDragging(true); }} onDragLeave={() => setDragging(false)} onDrop={drop}
            style={{ border: `2px dashed var(--mantine-color-${dragging ? 'blue-6' : 'gray-5'})`, borderRadius: 8 }}>
            <Text size="sm">{t('photos.drop')}</Text>
            <FileButton onChange={upload} accept="image/*" multiple>
              {(props) => <Button variant="light" {...props}>{t('photos.choose')}</Button>}
            </FileButton>
          </Stack>
        )}
        {uploads.map((item) => (
          <Stack key={item.id} gap={4}>
            <Text size="sm">{t(item.error ? 'photos.notUploaded' : 'photos.uploading', { name: item.name })}</Text>
            {item.error ? <ErrorAlert error={item.error} title={item.name} />
              : <Progress value={item.progress * 100} aria-label={t('photos.uploading', { name: item.name })} />}
          </Stack>
        ))}
        {images.length === 0 && uploads.length === 0 && <Text size="sm" c="dimmed">{t('photos.empty')}</Text>}
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} component="ol" aria-label={t('photos.list')} style={{ listStyle: 'none', padding: 0 }}>
          {images.map((image, index) => {
            const thumbnail = thumbnails.get(image.media_id);
            const number = index + 1;
            const label = t('photos.photo', { number });
            return (
              <Card key={image.media_id} withBorder component="li" aria-label={label} padding="xs">
                <Stack gap="xs">
                  <Image src={thumbnail ? variantFor(thumbnail, 400) : undefined} alt={image.alt?.default ?? ''} h={160} fit="cover" radius="sm"
                    style={{ background: thumbnail?.dominant_color }} />
                  <Group justify="space-between">
                    <Text size="sm" fw={500}>{index === 0 ? t('photos.cover', { number }) : label}</Text>
                    <Text size="xs" c="dimmed" truncate maw={160}>{thumbnail?.filename}</Text>
                  </Group>
                  {TEXT_LANGUAGES.map((language) => (
                    <TextInput key={language.key} size="xs" label={t('photos.altText', { language: languageName(language.language) })}
                      aria-label={t('photos.altTextOf', { language: languageName(language.language), number })}
                      value={image.alt?.[language.key] ?? ''} readOnly={!mayWrite} onChange={(event) => setAlt(index, language.key, event.currentTarget.value)} />
                  ))}
                  {mayWrite && (
                    <Group gap={4}>
                      <Button size="compact-xs" variant="default" disabled={index === 0} aria-label={t('photos.moveUpPhoto', { number })}
                        onClick={() => setImages(movePhoto(images, index, -1))}>{t('photos.moveUp')}</Button>
                      <Button size="compact-xs" variant="default" disabled={index === images.length - 1} aria-label={t('photos.moveDownPhoto', { number })}
                        onClick={() => setImages(movePhoto(images, index, 1))}>{t('photos.moveDown')}</Button>
                      <Button size="compact-xs" variant="default" disabled={index === 0} aria-label={t('photos.makeCoverPhoto', { number })}
                        onClick={() => setImages(setCover(images, index))}>{t('photos.makeCover')}</Button>
                      <Button size="compact-xs" color="red" variant="outline" aria-label={t('photos.removePhoto', { number })}
                        onClick={() => setImages(removePhoto(images, index))}>{t('common:remove')}</Button>
                    </Group>
                  )}
                </Stack>
              </Card>
            );
          })}
        </SimpleGrid>
        {mayWrite && (
          <Group>
            <Button onClick={save} loading={busy} disabled={!changed || uploads.some((item) => !item.error)}>{t('photos.save')}</Button>
            {changed && <Text size="sm" c="dimmed">{t('photos.unsaved')}</Text>}
            {saved && !changed && <Text size="sm" role="status">{t('photos.saved')}</Text>}
          </Group>
        )}
      </Stack>
    </Card>
  );
}
