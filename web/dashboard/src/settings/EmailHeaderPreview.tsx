/**
 * How the organization's e-mails begin, drawn as src/automations/html-email.ts lays them out: the logo on white in the
 * same box, the name on a bar of the brand colour (else in Staykit's blue on grey), the button in the colour, each
 * with the text colour the e-mail picks. The e-mail itself is MJML; this is its likeness for choosing a colour.
 */
import { Box, Image, Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DEFAULT_ACCENT, logoDisplayWidth, textColorOn } from '../../../../src/common/brand-color.js';
import { variantFor, type Media } from '../api/media';

export type LogoMedia = Pick<Media, 'id' | 'url' | 'variants' | 'width' | 'height'>;

export function EmailHeaderPreview({ name, color, logo }: { name: string; color: string | null; logo: LogoMedia | null }) {
  const { t } = useTranslation('settings');
  const logoWidth = logo ? logoDisplayWidth(logo.width, logo.height) : 0;
  return (
    <Paper withBorder p="md" bg="#f3f4f6" component="figure" m={0} aria-label={t('emailPreview.label')}>
      <Text component="figcaption" size="sm" c="dimmed" mb="xs">{t('emailPreview.caption')}</Text>
      <Box maw={600} style={{ fontFamily: 'Helvetica, Arial, sans-serif' }}>
        {logo && (
          <Box bg="#ffffff" px={24} py={20}>
            <Image src={variantFor(logo, 2 * logoWidth)} w={logoWidth} alt={t('emailPreview.logo', { name })} data-testid="preview-logo" />
          </Box>
        )}
        {color
          ? <Box bg={color} px={24} py={16} data-testid="preview-bar"><Text fw={700} fz={20} c={textColorOn(color)}>{name}</Text></Box>
          : <Box px={24} pt={24} pb={12}><Text fw={700} fz={20} c={DEFAULT_ACCENT}>{name}</Text></Box>}
        <Box bg="#ffffff" px={24} py={24}>
          <Text fz={16} c="#111827" mb={16}>{t('emailPreview.greeting')}</Text>
          <Box component="span" display="inline-block" px={25} py={10} fz={16} style={{ borderRadius: 6 }}
            bg={color ?? DEFAULT_ACCENT} c={color ? textColorOn(color) : '#ffffff'} data-testid="preview-button">{t('emailPreview.button')}</Box>
        </Box>
      </Box>
    </Paper>
  );
}
