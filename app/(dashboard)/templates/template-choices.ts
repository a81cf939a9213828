import type { TemplateSummary } from './types';

/** What a template select needs of a template. */
export type ChoosableTemplate = Pick<TemplateSummary, 'id' | 'name' | 'publishedAt' | 'variables'>;

/** Why a template cannot be chosen somewhere (a few words, shown beside its name), or null when it can. */
export type Unusable = (template: ChoosableTemplate) => string | null;

/** A template that was never published has nothing to send (a broadcast refuses it, so does re-engagement). */
export const unpublished: Unusable = (template) => (template.publishedAt === null ? 'never published' : null);

export interface ChoiceRules {
  /** The value chosen: a template's id, or '' for none. */
  value: string;
  /** Why a template is not offered; absent, every template is. */
  unusable?: Unusable;
  /** The unusable: left out, or listed disabled with the reason beside the name (so an author sees why one is missing). */
  unusableShown?: 'hidden' | 'disabled';
  /** An empty choice that is an answer of its own (a built-in text); without it, '' is the placeholder, not choosable. */
  noneChoice?: string;
  /** The first option while nothing is chosen (without `noneChoice`); "Choose a template" by default. */
  placeholder?: string;
  /** A chosen id not among those listed (past the first 100) kept as an option with this label; without it, the choice is taken for deleted. */
  unknownChoice?: string;
}

export interface TemplateOption {
  value: string;
  label: string;
  disabled: boolean;
}

export interface TemplateChoices {
  options: TemplateOption[];
  /** The select's value: the chosen id when it is offered, else ''. */
  selected: string;
  /** Nothing to choose: the caller shows its empty state instead of the select. */
  empty: boolean;
}

export const DELETED_CHOICE = 'The template was deleted: choose another';

/** The options of a template select, by one set of rules for every page that picks a template. */
export function templateChoices(templates: ChoosableTemplate[], rules: ChoiceRules): TemplateChoices {
  const unusable = rules.unusable ?? (() => null);
  const shown = templates.filter((template) => rules.unusableShown === 'disabled' || unusable(template) === null);
  const known = rules.value === '' ? rules.noneChoice !== undefined : shown.some((template) => template.id === rules.value);
  const keepUnknown = !known && rules.value !== '' && rules.unknownChoice !== undefined;
  const options: TemplateOption[] = [];
  if (rules.noneChoice !== undefined) options.push({ value: '', label: rules.noneChoice, disabled: false });
  if (keepUnknown) options.push({ value: rules.value, label: rules.unknownChoice!, disabled: false });
  else if (!known && rules.noneChoice === undefined) options.push({ value: '', label: rules.value ? DELETED_CHOICE : (rules.placeholder ?? 'Choose a template'), disabled: true });
  for (const template of shown) {
    const reason = unusable(template);
    // The current choice stays choosable, so the select never shows a value it cannot hold.
    options.push({ value: template.id, label: reason ? `${template.name} (${reason})` : template.name, disabled: reason !== null && template.id !== rules.value });
  }
  return { options, selected: known || keepUnknown ? rules.value : '', empty: rules.noneChoice === undefined && shown.length === 0 };
}
