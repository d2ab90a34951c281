/**
 * The reports page's charts (recharts, drawn in the theme's colours): a figure per month, this period against the
 * same months a year earlier, the bookings by source, and the pickup of the coming months. Each is a captioned figure; the tables below them hold the
 * same numbers for whoever cannot see a chart.
 */
import { Paper, Text } from '@mantine/core';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { PickupPoint } from './figures';

const CURRENT = 'var(--mantine-color-blue-7)';
const LAST_YEAR = 'var(--mantine-color-gray-6)';
const HEIGHT = 240;
/** One per month of a pickup chart. */
const PICKUP_COLORS = ['var(--mantine-color-blue-7)', 'var(--mantine-color-teal-8)', 'var(--mantine-color-grape-7)'];

export interface MonthPoint {
  /** The month's short name, the x axis's label. */
  label: string;
  current: number | null;
  lastYear: number | null;
}

function ChartFigure({ title, children }: { title: string; children: ReactElement }) {
  return (
    <Paper withBorder p="sm" component="figure" m={0} aria-label={title}>
      <Text component="figcaption" fw={600} size="sm" mb="xs">{title}</Text>
      <ResponsiveContainer width="100%" height={HEIGHT}>{children}</ResponsiveContainer>
    </Paper>
  );
}

/** A figure per month as bars (amounts, shares) or lines (rates), this period and last year side by side. */
export function MonthComparisonChart({ title, points, kind, format, axisFormat, currentLabel, lastYearLabel }: {
  title: string;
  points: readonly MonthPoint[];
  kind: 'bars' | 'lines';
  /** A value in the tooltip, and on the value axis. */
  format: (value: number) => string;
  axisFormat: (value: number) => string;
  currentLabel: string;
  lastYearLabel: string;
}) {
  const axes = [
    <CartesianGrid key="grid" strokeDasharray="3 3" vertical={false} />,
    <XAxis key="x" dataKey="label" tickLine={false} interval={0} />,
    <YAxis key="y" tickFormatter={axisFormat} width={72} />,
    <Tooltip key="tooltip" formatter={(value) => (typeof value === 'number' ? format(value) : '—')} />,
    <Legend key="legend" />,
  ];
  return (
    <ChartFigure title={title}>
      {kind === 'bars' ? (
        <BarChart data={[...points]} margin={{ right: 16 }}>
          {axes}
          <Bar dataKey="lastYear" name={lastYearLabel} fill={LAST_YEAR} isAnimationActive={false} />
          <Bar dataKey="current" name={currentLabel} fill={CURRENT} isAnimationActive={false} />
        </BarChart>
      ) : (
        <LineChart data={[...points]} margin={{ right: 16 }}>
          {axes}
          <Line dataKey="lastYear" name={lastYearLabel} stroke={LAST_YEAR} strokeWidth={2} connectNulls isAnimationActive={false} />
          <Line dataKey="current" name={currentLabel} stroke={CURRENT} strokeWidth={2} connectNulls isAnimationActive={false} />
        </LineChart>
      )}
    </ChartFigure>
  );
}

/** Bookings of the period by where they were made, a bar per source. */
export function ChannelMixChart({ title, shares }: { title: string; shares: readonly { label: string; bookings: number }[] }) {
  const { t } = useTranslation('reports');
  return (
    <ChartFigure title={title}>
      <BarChart data={[...shares]} layout="vertical" margin={{ left: 16 }}>
        <CartesianGrid strokeDasharray="3 3" horizontal={false} />
        <XAxis type="number" allowDecimals={false} />
        {/* Wide enough for the longest source name in every language ("Buchungs-Widget"). */}
        <YAxis type="category" dataKey="label" width={130} tickLine={false} />
        <Tooltip />
        <Bar dataKey="bookings" name={t('figures.bookings')} fill={CURRENT} isAnimationActive={false} />
      </BarChart>
    </ChartFigure>
  );
}

/** Each month's share of nights on the books against the days before it starts, later bookings to the right. */
export function PickupChart({ title, curves, format }: {
  title: string;
  curves: readonly { label: string; points: readonly PickupPoint[] }[];
  format: (share: number) => string;
}) {
  const { t } = useTranslation('reports');
  const axisLabel = { value: t('charts.daysBeforeAxis'), position: 'insideBottom', offset: -8 } as const;
  return (
    <ChartFigure title={title}>
      <LineChart margin={{ right: 16, bottom: 12 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis type="number" dataKey="daysBefore" reversed allowDecimals={false} domain={['dataMin', 'dataMax']}
          label={axisLabel} height={44} />
        <YAxis tickFormatter={format} width={72} />
        <Tooltip formatter={(value) => (typeof value === 'number' ? format(value) : '—')} labelFormatter={(days) => t('charts.daysBefore', { count: Number(days) })} />
        <Legend verticalAlign="top" />
        {curves.map((curve, index) => (
          <Line key={curve.label} data={[...curve.points]} dataKey="onTheBooks" name={curve.label} type="stepAfter"
            stroke={PICKUP_COLORS[index % PICKUP_COLORS.length]} strokeWidth={2} isAnimationActive={false} />
        ))}
      </LineChart>
    </ChartFigure>
  );
}
