/**
 * The words of the tasks: the board (/admin/tasks), the cleaner's own list (/admin/my-tasks), the task templates and
 * the unit page's Tasks section (units/Tasks.tsx).
 */
import { defineMessages } from '../i18n/messages.js';

export const tasksMessages = defineMessages({
  schedule: {
    departure: 'after departure', arrival: 'after arrival', confirmation: 'after confirmation', custom: 'custom',
  },
  /** A task's moment: "2 h after departure" (negative hours: before). */
  when: '{{hours}} h {{schedule}}',
  board: {
    title: 'Tasks',
    intro: 'The tasks of the bookings, per day and per unit: assign them to a member and mark them done.',
    day: 'Day', unit: 'Unit', allUnits: 'All units', previousDay: 'Previous day', nextDay: 'Next day',
    loadFailed: 'The tasks could not be loaded', empty: 'No task is due on this day.',
    assignee: 'Assigned to {{task}}', nobody: 'nobody', unknownUnit: 'Unit not shown',
    saveFailed: 'Could not change the task',
  },
  task: {
    done: 'Done', open: 'Open', markDone: 'Mark done', reopen: 'Reopen',
    markDoneLabel: 'Mark done: {{task}}', reopenLabel: 'Reopen: {{task}}', due: 'due {{moment}}',
  },
  mine: {
    title: 'My tasks', intro: 'The tasks assigned to you, the open ones first by the moment they are due.',
    empty: 'No open task of a booking is assigned to you.', overdue: 'Overdue', doneToday: 'Done',
    loadFailed: 'Your tasks could not be loaded',
  },
  todos: {
    title: 'To-dos', intro: 'Repairs, purchases and anything else not tied to a booking: for a unit or none, due on a day or not, for one or more members.',
    none: 'No open to-do.', loadFailed: 'The to-dos could not be loaded', newTitle: 'To-do', description: 'Details', noUnit: 'No unit',
    due: 'Due on', priority: 'Priority', assignees: 'Assigned to', assigneesLabel: '{{task}} assigned to', add: 'Add to-do',
    remove: 'Delete', removeLabel: 'Delete {{task}}', dueOn: 'due {{date}}', noDue: 'no due date',
  },
  priority: { urgent: 'urgent', high: 'high', normal: 'normal', low: 'low' },
  templates: {
    title: 'Task templates',
    intro: 'Reusable tasks, e.g. "Cleaning 0 h after departure", with the members they go to by default. Add one to a unit on its page.',
    label: 'Task', hours: 'Hours (negative: before)', after: 'After', assignees: 'Assigned by default to', add: 'Add template',
    none: 'No templates yet.', removeLabel: 'Remove template {{template}}', loadFailed: 'The templates could not be loaded',
    defaultName: 'Cleaning',
  },
  unit: {
    title: 'Tasks', none: 'No tasks: bookings of this unit bring none.', table: 'Tasks of each booking',
    task: 'Task', when: 'When', assignedTo: 'Assigned to', inactive: '(inactive)', aMember: 'a member', nobody: 'nobody',
    template: 'From template', noTemplate: 'none (a task of its own)', templateDefault: '{{names}} (template)',
    hours: 'Hours (negative: before)', after: 'After', add: 'Add task', removeLabel: 'Remove task {{task}}',
    defaultLabel: 'Cleaning',
  },
}, {
  nl: {
    schedule: {
      departure: 'na vertrek', arrival: 'na aankomst', confirmation: 'na bevestiging', custom: 'eigen moment',
    },
    when: '{{hours}} u {{schedule}}',
    board: {
      title: 'Taken',
      intro: 'De taken van de boekingen, per dag en per accommodatie: wijs ze toe aan een teamlid en vink ze af.',
      day: 'Dag', unit: 'Accommodatie', allUnits: 'Alle accommodaties', previousDay: 'Vorige dag', nextDay: 'Volgende dag',
      loadFailed: 'De taken konden niet worden geladen', empty: 'Er staat geen taak op deze dag.',
      assignee: '{{task}} toegewezen aan', nobody: 'niemand', unknownUnit: 'Accommodatie niet zichtbaar',
      saveFailed: 'De taak kon niet worden gewijzigd',
    },
    task: {
      done: 'Klaar', open: 'Open', markDone: 'Klaar', reopen: 'Heropenen',
      markDoneLabel: 'Klaar: {{task}}', reopenLabel: 'Heropenen: {{task}}', due: 'uiterlijk {{moment}}',
    },
    mine: {
      title: 'Mijn taken', intro: 'De taken die aan jou zijn toegewezen, de open taken eerst, op het moment waarop ze klaar moeten zijn.',
      empty: 'Er staat geen open taak van een boeking op jouw naam.', overdue: 'Te laat', doneToday: 'Klaar',
      loadFailed: 'Je taken konden niet worden geladen',
    },
    todos: {
      title: 'Klussen', intro: 'Reparaties, inkopen en alles wat niet bij een boeking hoort: voor een accommodatie of geen, met of zonder datum, voor een of meer teamleden.',
      none: 'Geen openstaande klus.', loadFailed: 'De klussen konden niet worden geladen', newTitle: 'Klus', description: 'Toelichting', noUnit: 'Geen accommodatie',
      due: 'Uiterlijk op', priority: 'Prioriteit', assignees: 'Toegewezen aan', assigneesLabel: '{{task}} toegewezen aan', add: 'Klus toevoegen',
      remove: 'Verwijderen', removeLabel: '{{task}} verwijderen', dueOn: 'uiterlijk {{date}}', noDue: 'geen datum',
    },
    priority: { urgent: 'dringend', high: 'hoog', normal: 'normaal', low: 'laag' },
    templates: {
      title: 'Taaksjablonen',
      intro: 'Taken die je vaker gebruikt, bijv. "Schoonmaak 0 u na vertrek", met de teamleden die ze standaard krijgen. Voeg er een toe aan een accommodatie op de pagina van die accommodatie.',
      label: 'Taak', hours: 'Uren (negatief: ervoor)', after: 'Na', assignees: 'Standaard toegewezen aan', add: 'Sjabloon toevoegen',
      none: 'Nog geen sjablonen.', removeLabel: 'Sjabloon {{template}} verwijderen', loadFailed: 'De sjablonen konden niet worden geladen',
      defaultName: 'Schoonmaak',
    },
    unit: {
      title: 'Taken', none: 'Geen taken: boekingen van deze accommodatie brengen er geen mee.', table: 'Taken bij elke boeking',
      task: 'Taak', when: 'Wanneer', assignedTo: 'Toegewezen aan', inactive: '(inactief)', aMember: 'een teamlid', nobody: 'niemand',
      template: 'Uit sjabloon', noTemplate: 'geen (een losse taak)', templateDefault: '{{names}} (sjabloon)',
      hours: 'Uren (negatief: ervoor)', after: 'Na', add: 'Taak toevoegen', removeLabel: 'Taak {{task}} weghalen',
      defaultLabel: 'Schoonmaak',
    },
  },
  de: {
    schedule: {
      departure: 'nach Abreise', arrival: 'nach Anreise', confirmation: 'nach Bestätigung', custom: 'eigener Zeitpunkt',
    },
    when: '{{hours}} Std. {{schedule}}',
    board: {
      title: 'Aufgaben',
      intro: 'Die Aufgaben der Buchungen, je Tag und je Unterkunft: Weisen Sie sie einem Mitglied zu und haken Sie sie ab.',
      day: 'Tag', unit: 'Unterkunft', allUnits: 'Alle Unterkünfte', previousDay: 'Vorheriger Tag', nextDay: 'Nächster Tag',
      loadFailed: 'Die Aufgaben konnten nicht geladen werden', empty: 'An diesem Tag ist keine Aufgabe fällig.',
      assignee: '{{task}} zugewiesen an', nobody: 'niemand', unknownUnit: 'Unterkunft nicht sichtbar',
      saveFailed: 'Die Aufgabe konnte nicht geändert werden',
    },
    task: {
      done: 'Erledigt', open: 'Offen', markDone: 'Erledigt', reopen: 'Wieder öffnen',
      markDoneLabel: 'Erledigt: {{task}}', reopenLabel: 'Wieder öffnen: {{task}}', due: 'fällig {{moment}}',
    },
    mine: {
      title: 'Meine Aufgaben', intro: 'Die Ihnen zugewiesenen Aufgaben, die offenen zuerst, nach ihrer Fälligkeit.',
      empty: 'Ihnen ist keine offene Aufgabe einer Buchung zugewiesen.', overdue: 'Überfällig', doneToday: 'Erledigt',
      loadFailed: 'Ihre Aufgaben konnten nicht geladen werden',
    },
    todos: {
      title: 'To-dos', intro: 'Reparaturen, Einkäufe und alles, was nicht zu einer Buchung gehört: für eine Unterkunft oder keine, mit oder ohne Fälligkeit, für ein oder mehrere Mitglieder.',
      none: 'Kein offenes To-do.', loadFailed: 'Die To-dos konnten nicht geladen werden', newTitle: 'To-do', description: 'Details', noUnit: 'Keine Unterkunft',
      due: 'Fällig am', priority: 'Priorität', assignees: 'Zugewiesen an', assigneesLabel: '{{task}} zugewiesen an', add: 'To-do hinzufügen',
      remove: 'Löschen', removeLabel: '{{task}} löschen', dueOn: 'fällig am {{date}}', noDue: 'ohne Fälligkeit',
    },
    priority: { urgent: 'dringend', high: 'hoch', normal: 'normal', low: 'niedrig' },
    templates: {
      title: 'Aufgabenvorlagen',
      intro: 'Wiederkehrende Aufgaben, z. B. „Reinigung 0 Std. nach Abreise“, mit den Mitgliedern, die sie standardmäßig erhalten. Fügen Sie eine auf der Seite einer Unterkunft hinzu.',
      label: 'Aufgabe', hours: 'Stunden (negativ: davor)', after: 'Nach', assignees: 'Standardmäßig zugewiesen an', add: 'Vorlage hinzufügen',
      none: 'Noch keine Vorlagen.', removeLabel: 'Vorlage {{template}} löschen', loadFailed: 'Die Vorlagen konnten nicht geladen werden',
      defaultName: 'Reinigung',
    },
    unit: {
      title: 'Aufgaben', none: 'Keine Aufgaben: Buchungen dieser Unterkunft bringen keine mit.', table: 'Aufgaben jeder Buchung',
      task: 'Aufgabe', when: 'Wann', assignedTo: 'Zugewiesen an', inactive: '(inaktiv)', aMember: 'ein Mitglied', nobody: 'niemand',
      template: 'Aus Vorlage', noTemplate: 'keine (eigene Aufgabe)', templateDefault: '{{names}} (Vorlage)',
      hours: 'Stunden (negativ: davor)', after: 'Nach', add: 'Aufgabe hinzufügen', removeLabel: 'Aufgabe {{task}} entfernen',
      defaultLabel: 'Reinigung',
    },
  },
});
