/**
 * The organization's attributes (`attributes`) and their options (`attribute_options`) — what guests filter units by
 * in the widget and `POST /v1/search` (`option_ids`) — and which units have which options
 * (`product_attribute_options`), as a matrix of units and options. An attribute where guests choose one option
 * (single-select) gives each unit at most one of its options: ticking another moves the unit's tick. Attributes and
 * options are renamed in place, in each language their name has (an option by its name's button).
 */
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge, Button, Checkbox, CloseButton, Group, Loader, Paper, Select, Stack, Table, Text, TextInput, Title, UnstyledButton } from '@mantine/core';
import { database, rowsOf, valuesOf, type Enums, type Selected } from '../api/database';
import { ErrorAlert } from '../common/ErrorAlert';
import { localized } from '../common/format';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { loadUnitNames, withDefaultText, type UnitName } from './business-units';
import { useAction } from '../common/use-action';
import { RenameForm } from '../common/RenameForm';
import { RenameDeleteButtons } from './RenameDeleteButtons';

const ATTRIBUTE = 'id,name,type,order,attribute_options(id,name,order)';
type Attribute = Selected<'attributes', typeof ATTRIBUTE>;
const LINK = 'id,product_id,attribute_option_id';
type Link = Selected<'product_attribute_options', typeof LINK>;
const TYPES = valuesOf<'attributes_type'>()('single-select', 'multi-select');

export function Attributes() {
  const { t } = useTranslation('businessSettings');
  const { can, locale } = useWorkspace();
  const loaded = useLoad(async () => ({
    attributes: rowsOf(await database.from('attributes').select(ATTRIBUTE).order('order').order('created_at')),
    // The matrix needs the links and the units; without their read permission the page shows the attributes alone.
    links: can('product_attribute_options') ? rowsOf(await database.from('product_attribute_options').select(LINK)) : null,
    units: can('products') ? await loadUnitNames(locale) : null,
  }), [can, locale]);
  return (
    <Stack maw={1100}>
      <Title order={2}>{t('attributes.title')}</Title>
      <Text size="sm">{t('attributes.intro')}</Text>
      <ErrorAlert error={loaded.error} title={t('loadFailed')} />
      {loaded.loading && !loaded.data && <Loader size="sm" role="status" aria-label={t('attributes.title')} />}
      {loaded.data && <AttributeEditor {...loaded.data} reload={loaded.reload} />}
    </Stack>
  );
}

interface EditorProps {
  attributes: Attribute[];
  links: Link[] | null;
  units: UnitName[] | null;
  reload: () => void;
}

function AttributeEditor({ attributes, links, units, reload }: EditorProps) {
  const { t } = useTranslation(['businessSettings', 'common']);
  const { can, locale } = useWorkspace();
  const mayWrite = can('attributes', 'write');
  const [name, setName] = useState('');
  const [type, setType] = useState<Enums<'attributes_type'>>('multi-select');
  const [tried, setTried] = useState(false);
  /** The attribute or option whose name is being edited. */
  const [renaming, setRenaming] = useState<string | null>(null);
  const action = useAction(reload);
  const { error } = action;
  const busy = action.busy !== null;
  const sorted = (options: Attribute['attribute_options']) => [...options].sort((a, b) => a.order - b.order);

  const change = (work: () => Promise<unknown>) => action.run('change', work);
  const add = async () => {
    setTried(true);
    if (name.trim() === '') return;
    if (await change(async () => rowsOf(await database.from('attributes').insert({ name: withDefaultText({}, name), type, order: attributes.length })))) {
      setName('');
      setTried(false);
    }
  };
  const rename = (table: 'attributes' | 'attribute_options', id: string) => (name: Record<string, string>) =>
    change(async () => rowsOf(await database.from(table).update({ name }).eq('id', id)));
  const addOption = (attribute: Attribute, optionName: string) => change(async () => rowsOf(await database.from('attribute_options')
    .insert({ attribute_id: attribute.id, name: withDefaultText({}, optionName), order: attribute.attribute_options.length })));

  return (
    <Stack>
      <ErrorAlert error={error} title={t('changeFailed')} />
      {attributes.length === 0 && <Text size="sm" c="dimmed">{t('attributes.none')}</Text>}
      {attributes.map((attribute) => {
        const attributeName = localized(attribute.name, locale);
        return (
          <Paper key={attribute.id} withBorder p="md" component="section" aria-label={attributeName}>
            <Stack gap="xs">
              <Group justify="space-between">
                <Group gap="xs">
                  <Title order={3} size="h4">{attributeName}</Title>
                  <Badge variant="light" color="gray">{t(`attributes.types.${attribute.type}`)}</Badge>
                </Group>
                {mayWrite && (
                  <RenameDeleteButtons name={attributeName} busy={busy} renaming={renaming === attribute.id} onRename={() => setRenaming(attribute.id)}
                    onDelete={() => change(async () => rowsOf(await database.from('attributes').delete().eq('id', attribute.id)))} />
                )}
              </Group>
              {renaming === attribute.id && (
                <RenameForm name={attribute.name} shown={attributeName} busy={busy} onClose={() => setRenaming(null)} onRename={rename('attributes', attribute.id)} />
              )}
              <Group gap="xs">
                {sorted(attribute.attribute_options).map((option) => {
                  const optionName = localized(option.name, locale);
                  return (
                    <Badge key={option.id} variant="outline" size="lg" tt="none" rightSection={mayWrite && (
                      <CloseButton size="xs" disabled={busy} aria-label={t('deleteNamed', { name: optionName })}
                        onClick={() => change(async () => rowsOf(await database.from('attribute_options').delete().eq('id', option.id)))} />
                    )}>
                      {mayWrite ? (
                        <UnstyledButton fz="inherit" c="inherit" disabled={busy} title={t('common:rename.named', { name: optionName })}
                          aria-label={t('common:rename.named', { name: optionName })} onClick={() => setRenaming(option.id)}>
                          {optionName}
                        </UnstyledButton>
                      ) : optionName}
                    </Badge>
                  );
                })}
              </Group>
              {attribute.attribute_options.filter((option) => option.id === renaming).map((option) => (
                <RenameForm key={option.id} name={option.name} shown={localized(option.name, locale)} busy={busy} onClose={() => setRenaming(null)}
                  onRename={rename('attribute_options', option.id)} />
              ))}
              {mayWrite && <NewOption label={t('attributes.newOption', { name: attributeName })} busy={busy} onAdd={(optionName) => addOption(attribute, optionName)} />}
            </Stack>
          </Paper>
        );
      })}
      {mayWrite && (
        <Paper withBorder p="md" component="section" aria-label={t('attributes.addTitle')}>
          <Stack>
            <Title order={3} size="h4">{t('attributes.addTitle')}</Title>
            <Group align="flex-start" grow>
              <TextInput label={t('attributes.name')} value={name} error={tried && name.trim() === '' && t('attributes.nameProblem')}
                onChange={(event) => setName(event.currentTarget.value)} />
              <Select label={t('attributes.type')} value={type} allowDeselect={false}
                data={TYPES.map((value) => ({ value, label: t(`attributes.types.${value}`) }))}
                onChange={(value) => value && setType(value as Enums<'attributes_type'>)} />
            </Group>
            <Group><Button onClick={add} loading={busy}>{t('attributes.add')}</Button></Group>
          </Stack>
        </Paper>
      )}
      {links && units && attributes.some((attribute) => attribute.attribute_options.length > 0) && (
        <UnitOptions attributes={attributes.map((attribute) => ({ ...attribute, attribute_options: sorted(attribute.attribute_options) }))}
          links={links} units={units} busy={busy} change={change} />
      )}
    </Stack>
  );
}

/** A text field and a button that adds an option by that name. */
function NewOption({ label, busy, onAdd }: { label: string; busy: boolean; onAdd: (name: string) => Promise<boolean> }) {
  const { t } = useTranslation('businessSettings');
  const [name, setName] = useState('');
  const submit = async () => {
    if (name.trim() !== '' && await onAdd(name)) setName('');
  };
  return (
    <Group align="flex-end" gap="xs">
      <TextInput label={label} value={name} size="xs" onChange={(event) => setName(event.currentTarget.value)}
        onKeyDown={(event) => { if (event.key === 'Enter') void submit(); }} />
      <Button size="xs" variant="default" disabled={busy || name.trim() === ''} onClick={submit}>{t('attributes.addOption')}</Button>
    </Group>
  );
}

interface UnitOptionsProps {
  attributes: Attribute[];
  links: Link[];
  units: UnitName[];
  busy: boolean;
  change: (work: () => Promise<unknown>) => Promise<boolean>;
}

/** The matrix: a row per unit, a column per option under its attribute; a tick is a `product_attribute_options` row. */
function UnitOptions({ attributes, links, units, busy, change }: UnitOptionsProps) {
  const { t } = useTranslation('businessSettings');
  const { can, locale } = useWorkspace();
  const mayLink = can('product_attribute_options', 'write');
  const linkOf = (unitId: string, optionId: string) => links.find((link) => link.product_id === unitId && link.attribute_option_id === optionId);
  const toggle = (attribute: Attribute, unitId: string, optionId: string, checked: boolean) => change(async () => {
    if (!checked) {
      rowsOf(await database.from('product_attribute_options').delete().eq('product_id', unitId).eq('attribute_option_id', optionId));
      return;
    }
    // One option per unit where guests choose one: the unit's other option of this attribute goes.
    const others = attribute.type === 'single-select'
      ? attribute.attribute_options.map((option) => option.id).filter((id) => id !== optionId && linkOf(unitId, id)) : [];
    if (others.length > 0) rowsOf(await database.from('product_attribute_options').delete().eq('product_id', unitId).in('attribute_option_id', others));
    rowsOf(await database.from('product_attribute_options').insert({ product_id: unitId, attribute_option_id: optionId }));
  });

  return (
    <Paper withBorder p="md" component="section" aria-label={t('attributes.matrixTitle')}>
      <Stack gap="xs">
        <Title order={3} size="h4">{t('attributes.matrixTitle')}</Title>
        <Text size="sm">{t('attributes.matrixIntro')}</Text>
        {units.length === 0 ? <Text size="sm" c="dimmed">{t('attributes.noUnits')}</Text> : (
          <Table.ScrollContainer minWidth={480}>
            <Table withColumnBorders>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th rowSpan={2}>{t('attributes.unit')}</Table.Th>
                  {attributes.filter((attribute) => attribute.attribute_options.length > 0).map((attribute) => (
                    <Table.Th key={attribute.id} colSpan={attribute.attribute_options.length} ta="center">{localized(attribute.name, locale)}</Table.Th>
                  ))}
                </Table.Tr>
                <Table.Tr>
                  {attributes.flatMap((attribute) => attribute.attribute_options).map((option) => (
                    <Table.Th key={option.id} ta="center" fw={500}>{localized(option.name, locale)}</Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {units.map((unit) => (
                  <Table.Tr key={unit.id}>
                    <Table.Th scope="row" fw={500}>{unit.name}</Table.Th>
                    {attributes.map((attribute) => (
                      <Fragment key={attribute.id}>
                        {attribute.attribute_options.map((option) => (
                          <Table.Td key={option.id}>
                            <Group justify="center">
                              <Checkbox checked={Boolean(linkOf(unit.id, option.id))} disabled={!mayLink || busy}
                                aria-label={t('attributes.optionOfUnit', { option: localized(option.name, locale), unit: unit.name })}
                                onChange={(event) => toggle(attribute, unit.id, option.id, event.currentTarget.checked)} />
                            </Group>
                          </Table.Td>
                        ))}
                      </Fragment>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Paper>
  );
}
