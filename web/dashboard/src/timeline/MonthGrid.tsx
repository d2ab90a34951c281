/**
 * The grid of one month: a header of days, then one row per unit with its bars, task dots and pickable days. The
 * days are one tab stop (a roving tabindex): arrow keys move between days and units, Enter or Space picks a day.
 */
import { useEffect, useRef, useState, type CSSProperties, type KeyboardEvent } from 'react';
import { Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isWeekend } from '../common/dates';
import { navigate } from '../common/router';
import { useWorkspace } from '../shell/context';
import { placeBar } from './layout';
import { bookingLabel, type TimelineData, type TimelineEvent, type TimelineTask } from './queries';
import classes from './timeline.module.css';

interface Props {
  days: string[];
  data: TimelineData;
  anchor: { unitId: string; date: string } | null;
  busy: boolean;
  onPickDay: (unitId: string, date: string) => void;
  onCancelPick: () => void;
  onOpenEvent: (event: TimelineEvent) => void;
}

const ARROWS: Record<string, [rows: number, days: number]> = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };

function barClass(event: TimelineEvent): string {
  if (event.status === 'CANCELLED') return classes.CANCELLED!;
  if (event.type === 'booking') return classes[event.status]!;
  return event.calendar_id ? classes.imported! : classes.blocked!;
}

export function MonthGrid({ days, data, anchor, busy, onPickDay, onCancelPick, onOpenEvent }: Props) {
  const { format, can } = useWorkspace();
  const { t } = useTranslation('calendar');
  const today = format.today();
  const first = days[0]!;
  const style = { '--days': days.length } as CSSProperties;
  const scroller = useRef<HTMLDivElement>(null);
  const [cursor, setCursor] = useState<{ row: number; day: number } | null>(null);
  // The day that takes the tab stop: the last one focused, else today (or the 1st) of the first unit.
  const stop = { row: Math.min(cursor?.row ?? 0, data.units.length - 1), day: Math.min(cursor?.day ?? Math.max(days.indexOf(today), 0), days.length - 1) };
  // On a narrow screen the month does not fit: start with today in view rather than the 1st.
  useEffect(() => {
    const box = scroller.current;
    const column = box?.querySelector<HTMLElement>(`[data-day="${today}"]`);
    const unitColumn = box?.querySelector<HTMLElement>('[role="columnheader"]');
    if (!box || !column || !unitColumn) return;
    const left = column.getBoundingClientRect().left - box.getBoundingClientRect().left + box.scrollLeft;
    box.scrollLeft = Math.max(0, left - unitColumn.offsetWidth - 2 * column.offsetWidth);
  }, [first, today]);

  const barLabel = (event: TimelineEvent) => bookingLabel(event, t('grid.bookingFallback'));
  const describe = (event: TimelineEvent) => {
    const reference = event.bookings?.reference ?? '';
    const label = barLabel(event);
    const what = event.type === 'booking'
      ? t('grid.booking', { reference, name: label === reference ? '' : label })
      : event.calendar_id
        ? (event.external_calendars?.name ? t('grid.importedFrom', { feed: event.external_calendars.name }) : t('grid.importedBlock'))
        : t('grid.block', { title: event.title });
    return t('grid.bar', {
      what: what.replace(/\s+/g, ' ').trim(), start: format.date(event.start_date), end: format.date(event.end_date), status: t(`statuses.${event.status}`),
    });
  };

  const open = (event: TimelineEvent) => {
    if (event.type === 'booking' && event.booking_id && can('bookings')) navigate(`/bookings/${event.booking_id}`);
    else onOpenEvent(event);
  };

  const tasksOf = (unitId: string): (TimelineTask & { day: number })[] =>
    data.tasks.filter((task) => task.calendar_events?.product_id === unitId)
      .map((task) => ({ ...task, day: days.indexOf(format.dayOf(task.due_at)) }))
      .filter((task) => task.day >= 0);

  const escape = (event: KeyboardEvent) => {
    if (event.key === 'Escape') onCancelPick();
  };

  const moveFrom = (row: number, day: number) => (event: KeyboardEvent) => {
    const step = ARROWS[event.key];
    if (!step) return;
    event.preventDefault();
    const next = { row: Math.max(0, Math.min(row + step[0], data.units.length - 1)), day: Math.max(0, Math.min(day + step[1], days.length - 1)) };
    setCursor(next);
    scroller.current?.querySelector<HTMLElement>(`[data-unit-id="${data.units[next.row]!.id}"] button[data-date="${days[next.day]}"]`)?.focus();
  };

  if (data.units.length === 0) return <Text c="dimmed">{t('grid.empty')}</Text>;

  return (
    <div className={classes.scroller} aria-busy={busy} onKeyDown={escape} ref={scroller}>
      <div className={classes.grid} style={style} role="table" aria-label={t('grid.table', { month: format.month(first) })}>
        <div role="row" style={{ display: 'contents' }}>
          <div className={classes.unitName} role="columnheader">{t('grid.unit')}</div>
          {days.map((date) => {
            const label = format.weekdayDay(date);
            return (
              <div key={date} role="columnheader" aria-label={format.date(date)} data-day={date}
                className={`${classes.dayHeader} ${isWeekend(date) ? classes.weekend : ''} ${date === today ? classes.today : ''}`}>
                <div>{label.weekday}</div><div>{label.day}</div>
              </div>
            );
          })}
        </div>
        {data.units.map((unit, row) => (
          <div role="row" key={unit.id} style={{ display: 'contents' }} data-unit={unit.name}>
            <div className={classes.unitName} role="rowheader" title={unit.name}>{unit.name}</div>
            <div className={classes.row} role="cell" data-unit-id={unit.id}>
              {days.map((date, day) => (
                <button key={date} type="button" tabIndex={stop.row === row && stop.day === day ? 0 : -1} data-date={date}
                  onFocus={() => setCursor({ row, day })} onKeyDown={moveFrom(row, day)}
                  aria-label={`${unit.name}, ${format.date(date)}`}
                  className={`${classes.day} ${isWeekend(date) ? classes.weekend : ''} ${anchor?.unitId === unit.id && anchor.date === date ? classes.selected : ''}`}
                  onClick={() => onPickDay(unit.id, date)} />
              ))}
              {data.events.filter((event) => event.product_id === unit.id).map((event) => {
                const place = placeBar(event.start_date, event.end_date, first, days.length);
                if (!place) return null;
                const label = describe(event);
                return (
                  <Tooltip key={event.id} label={label} withinPortal openDelay={300}>
                    <button type="button" aria-label={label} data-event-id={event.id} data-booking-id={event.booking_id ?? undefined}
                      data-status={event.status} data-start={event.start_date} data-end={event.end_date}
                      className={`${classes.bar} ${barClass(event)} ${place.continuesBefore ? classes.continuesBefore : ''} ${place.continuesAfter ? classes.continuesAfter : ''}`}
                      style={{ left: `calc(${place.offset} * var(--day-width) + 2px)`, width: `calc(${place.length} * var(--day-width) - 4px)` }}
                      onClick={() => open(event)}>
                      {event.type === 'booking' ? barLabel(event) : event.title || t(event.calendar_id ? 'grid.ical' : 'grid.blocked')}
                    </button>
                  </Tooltip>
                );
              })}
              {tasksOf(unit.id).map((task) => (
                <Tooltip key={task.id} label={t(task.completed_at ? 'grid.taskDone' : 'grid.task', { label: task.label, due: format.moment(task.due_at) })} withinPortal>
                  <button type="button" className={`${classes.task} ${task.completed_at ? classes.taskDone : ''}`} data-task-id={task.id}
                    aria-label={t(task.completed_at ? 'grid.taskDoneLabel' : 'grid.task', { label: task.label, due: format.moment(task.due_at) })}
                    style={{ left: `calc(${task.day} * var(--day-width) + var(--day-width) / 2 - 5px)` }} />
                </Tooltip>
              ))}
            </div>
          </div>
        ))}
      </div>
    </div>
  );
}
