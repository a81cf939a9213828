import { expect, test, type Page } from '@playwright/test';
import { trpcMutation, trpcQuery } from './dashboard-api';
import { shot, signUp, uniqueEmail } from './helpers';

/**
 * Contacts end to end (issue 35 item 9): a property and a topic defined on their pages, a contact
 * added with its names, opened, given property values, put in a segment, found in the list by
 * that segment, unsubscribed from everything and back, and deleted from everything.
 */

const contactRow = (page: Page, email: string) => page.locator(`[data-testid="contact-row"][data-email="${email}"]`);
const propertyValue = (page: Page, key: string) => page.locator(`[data-testid="property-value"][data-key="${key}"]`);
const tabs = (page: Page) => page.getByRole('navigation', { name: 'Contacts pages' });
const contactTopic = (page: Page, name: string) => page.locator(`[data-testid="contact-topic"][data-name="${name}"]`);

test('a contact is added with its names, given property values and a segment, found by it, and deleted', async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, uniqueEmail('e2e-contacts'), { landOn: '/' });

  // The page is in the navigation, after Audiences; an empty account explains contacts.
  const nav = page.getByRole('navigation', { name: 'Main' });
  const labels = await nav.getByRole('link').allInnerTexts();
  expect(labels.indexOf('Contacts')).toBe(labels.indexOf('Audiences') + 1);
  await nav.getByRole('link', { name: 'Contacts', exact: true }).click();
  await expect(page).toHaveURL(/\/contacts$/);
  await expect(page.getByTestId('contacts-empty')).toContainText('No contacts yet');
  await expect(tabs(page).getByRole('link', { name: 'Contacts' })).toHaveAttribute('aria-current', 'page');
  await shot(page, 'contacts-empty');

  // Properties: the empty page says what they are for; one made with a fallback, one more, one deleted.
  await tabs(page).getByRole('link', { name: 'Properties' }).click();
  await expect(page).toHaveURL(/\/contacts\/properties$/);
  await expect(page.getByTestId('properties-empty')).toContainText('personalizing broadcasts');
  await shot(page, 'contact-properties-empty');
  await page.getByTestId('properties-empty').getByRole('button', { name: 'Create property' }).click();
  const createProperty = page.getByTestId('create-property-dialog');
  await createProperty.getByLabel('Key').fill('email');
  await createProperty.getByLabel('Fallback').fill('Free');
  await createProperty.getByRole('button', { name: 'Create property' }).click();
  // The server's refusal of a key every contact has, under the field.
  await expect(createProperty.getByLabel('Key')).toHaveAttribute('aria-invalid', 'true');
  await expect(createProperty.getByTestId('field-error')).toContainText('a field every contact has');
  await createProperty.getByLabel('Key').fill('plan');
  await shot(page, 'contact-properties-create', { fullPage: false });
  await createProperty.getByRole('button', { name: 'Create property' }).click();
  await expect(createProperty).toBeHidden();
  for (const [key, type] of [
    ['seats', 'Number (such as 42)'],
    ['renews_on', 'Date (such as 2026-11-30)'],
    ['obsolete', 'True or false (such as true)'],
  ]) {
    await page.getByRole('button', { name: 'Create property' }).click();
    await createProperty.getByLabel('Key').fill(key!);
    await createProperty.getByLabel('Type').selectOption({ label: type! });
    await createProperty.getByRole('button', { name: 'Create property' }).click();
    await expect(createProperty).toBeHidden();
  }
  const propertyRows = page.getByTestId('property-row');
  await expect(propertyRows).toHaveCount(4);
  await expect(page.locator('[data-testid="property-row"][data-key="plan"]').getByTestId('property-fallback')).toHaveText('Free');
  await expect(page.locator('[data-testid="property-row"][data-key="seats"]').getByTestId('property-type')).toHaveAttribute('data-type', 'number');
  // The fallback is the one thing that changes.
  await page.getByRole('button', { name: 'Edit the fallback of seats' }).click();
  const editFallback = page.getByTestId('edit-fallback-dialog');
  await editFallback.getByLabel('Fallback').fill('one');
  await editFallback.getByRole('button', { name: 'Save fallback' }).click();
  await expect(editFallback.getByTestId('field-error')).toHaveText('must be a number');
  await editFallback.getByLabel('Fallback').fill('1');
  await editFallback.getByRole('button', { name: 'Save fallback' }).click();
  await expect(editFallback).toBeHidden();
  await expect(page.locator('[data-testid="property-row"][data-key="seats"]').getByTestId('property-fallback')).toHaveText('1');
  await page.getByRole('button', { name: 'Delete obsolete' }).click();
  const deleteProperty = page.getByTestId('delete-property-dialog');
  await expect(deleteProperty).toContainText("Every contact's value of it is deleted with it.");
  await deleteProperty.getByRole('button', { name: 'Delete property' }).click();
  await expect(deleteProperty).toBeHidden();
  await expect(propertyRows).toHaveCount(3);
  await shot(page, 'contact-properties');

  // Topics: the empty page explains them; one made opt-in and its description edited; one made opt-out and deleted.
  await tabs(page).getByRole('link', { name: 'Topics' }).click();
  await expect(page).toHaveURL(/\/contacts\/topics$/);
  await expect(page.getByTestId('topics-empty')).toContainText('instead of unsubscribing from everything');
  await shot(page, 'contact-topics-empty');
  await page.getByTestId('topics-empty').getByRole('button', { name: 'Create topic' }).click();
  const createTopic = page.getByTestId('create-topic-dialog');
  await createTopic.getByLabel('Name').fill('Product news');
  await createTopic.getByLabel('Description').fill('New features, once a month.');
  // No default is preselected: it is fixed once made.
  await expect(createTopic.getByRole('button', { name: 'Create topic' })).toBeDisabled();
  await createTopic.getByRole('radio', { name: /Opt-in/ }).check();
  await shot(page, 'contact-topics-create', { fullPage: false });
  await createTopic.getByRole('button', { name: 'Create topic' }).click();
  await expect(createTopic).toBeHidden();
  await page.getByRole('button', { name: 'Create topic' }).click();
  await createTopic.getByLabel('Name').fill('Weekly digest');
  await createTopic.getByRole('radio', { name: /Opt-out/ }).check();
  await createTopic.getByRole('button', { name: 'Create topic' }).click();
  await expect(createTopic).toBeHidden();
  const news = page.locator('[data-testid="topic-row"][data-name="Product news"]');
  await expect(news.getByTestId('topic-default')).toHaveText('Opt-in');
  await expect(page.locator('[data-testid="topic-row"][data-name="Weekly digest"]').getByTestId('topic-default')).toHaveText('Opt-out');
  await expect(page.getByTestId('topics-legend')).toContainText('Contacts receive it only once they join the topic.');
  await news.getByRole('button', { name: 'Edit Product news' }).click();
  const editTopic = page.getByTestId('edit-topic-dialog');
  await editTopic.getByLabel('Description').fill('New features, twice a month.');
  await editTopic.getByRole('button', { name: 'Save changes' }).click();
  await expect(editTopic).toBeHidden();
  await expect(news.getByTestId('topic-description')).toHaveText('New features, twice a month.');
  await shot(page, 'contact-topics');
  await page.getByRole('button', { name: 'Delete Weekly digest' }).click();
  const deleteTopic = page.getByTestId('delete-topic-dialog');
  await deleteTopic.getByRole('button', { name: 'Delete topic' }).click();
  await expect(deleteTopic).toBeHidden();
  await expect(page.getByTestId('topic-row')).toHaveCount(1);

  // Two segments, and contacts beside the one added here (set up through the dashboard's API).
  await trpcMutation(page, 'audiences.create', { name: 'Newsletter readers' });
  const customers = await trpcMutation<{ id: string }>(page, 'audiences.create', { name: 'Customers' });
  await trpcMutation(page, 'contacts.create', { email: 'grace@example.com', first_name: 'Grace', last_name: 'Hopper', segments: [{ id: customers.id }] });
  await trpcMutation(page, 'contacts.create', { email: 'linus@example.net', unsubscribed: true, segments: [{ id: customers.id }] });

  // A contact added with its names, in no segment yet. (Loaded afresh: the segments were made behind the page's back.)
  await page.goto('/contacts');
  await expect(page.getByTestId('contact-row')).toHaveCount(2);
  await page.getByRole('button', { name: 'Add contact' }).click();
  const add = page.getByTestId('add-contact-dialog');
  await add.getByLabel('Email').fill('Ada@Example.com');
  await add.getByLabel('First name').fill('Ada');
  await add.getByLabel('Last name').fill('Lovelace');
  await expect(add.getByTestId('segment-checkboxes').getByRole('checkbox')).toHaveCount(2);
  await shot(page, 'contacts-add', { fullPage: false });
  await add.getByRole('button', { name: 'Add contact' }).click();
  await expect(add).toBeHidden();
  const ada = contactRow(page, 'ada@example.com');
  await expect(page.getByTestId('contact-row').first()).toHaveAttribute('data-email', 'ada@example.com');
  await expect(ada.getByTestId('contact-name')).toHaveText('Ada Lovelace');
  await expect(contactRow(page, 'linus@example.net').getByTestId('contact-unsubscribed')).toHaveText('Unsubscribed from everything');
  await expect(ada.getByTestId('contact-unsubscribed')).toHaveCount(0);
  await expect(page.getByTestId('contacts-shown')).toHaveText('3 contacts');
  await shot(page, 'contacts-list');

  // Search by a part of the address, then open the contact.
  await page.getByLabel('Search').fill('ADA@');
  await expect(page.getByTestId('contact-row')).toHaveCount(1);
  await ada.getByRole('link', { name: 'ada@example.com', exact: true }).click();
  await expect(page).toHaveURL(/\/contacts\/[0-9a-f-]{36}$/);
  const contactUrl = page.url();
  await expect(page.getByRole('heading', { level: 1, name: 'ada@example.com' })).toBeVisible();
  await expect(page.getByTestId('contact-first-name')).toHaveText('Ada');
  await expect(page.getByTestId('contact-last-name')).toHaveText('Lovelace');
  await expect(page.getByTestId('unsubscribed-state')).toHaveText('Off');
  await expect(page.getByTestId('engagement-moment')).toHaveText(['never', 'never', 'never']);
  // Every property, the fallback greyed where the contact has no value.
  await expect(propertyValue(page, 'plan')).toHaveAttribute('data-state', 'fallback');
  await expect(propertyValue(page, 'plan').getByTestId('property-value-text')).toHaveText('Free (fallback)');
  await expect(propertyValue(page, 'renews_on')).toHaveAttribute('data-state', 'none');
  await expect(page.getByTestId('no-segments')).toBeVisible();

  // Values set in the dialog, a field for each type; a number that is none is named at its field.
  await page.getByRole('button', { name: 'Edit values' }).click();
  const values = page.getByTestId('edit-properties-dialog');
  await values.getByLabel('plan', { exact: true }).fill('Pro');
  await values.getByLabel('seats', { exact: true }).fill('a dozen');
  await expect(values.getByLabel('renews_on', { exact: true })).toHaveAttribute('type', 'date');
  await values.getByLabel('renews_on', { exact: true }).fill('2026-11-30');
  await values.getByRole('button', { name: 'Save values' }).click();
  await expect(values.getByLabel('seats', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(values.getByTestId('field-error')).toHaveText('must be a number');
  await shot(page, 'contact-values-invalid', { fullPage: false });
  await values.getByLabel('seats', { exact: true }).fill('12');
  await values.getByRole('button', { name: 'Save values' }).click();
  await expect(values).toBeHidden();
  await expect(propertyValue(page, 'plan').getByTestId('property-value-text')).toHaveText('Pro');
  await expect(propertyValue(page, 'seats').getByTestId('property-value-text')).toHaveText('12');
  await expect(propertyValue(page, 'renews_on').getByTestId('property-value-text')).toHaveText('2026-11-30');

  // Into a segment, subscribed there.
  const segments = page.getByTestId('contact-segments');
  await segments.getByLabel('Add to a segment').selectOption({ label: 'Newsletter readers' });
  await segments.getByRole('button', { name: 'Add to segment' }).click();
  const joined = segments.getByTestId('contact-segment');
  await expect(joined).toHaveCount(1);
  await expect(joined.getByTestId('contact-segment-name')).toHaveText('Newsletter readers');
  await expect(joined.getByTestId('contact-subscription')).toHaveAttribute('data-subscribed', 'true');
  await expect(segments.getByLabel('Add to a segment').locator('option')).toHaveText(['Choose a segment', 'Customers']);

  // Unsubscribed from everything at once; subscribing again asks first.
  const unsubscribed = page.getByRole('switch', { name: 'Unsubscribed from everything' });
  await unsubscribed.click();
  await expect(page.getByTestId('unsubscribed-state')).toHaveText('On');
  await expect(page.getByTestId('contact-detail').getByTestId('contact-unsubscribed')).toBeVisible();
  await shot(page, 'contact-detail');
  await unsubscribed.click();
  const resubscribe = page.getByTestId('resubscribe-dialog');
  await expect(resubscribe.getByTestId('resubscribe-warning')).toContainText('only if they asked you to');
  await shot(page, 'contact-resubscribe', { fullPage: false });
  await resubscribe.getByRole('button', { name: 'Subscribe again' }).click();
  await expect(resubscribe).toBeHidden();
  await expect(page.getByTestId('unsubscribed-state')).toHaveText('Off');

  // The list, filtered by the segment: this contact alone; the other segment: the others.
  await page.getByRole('link', { name: 'Contacts', exact: true }).first().click();
  await expect(page).toHaveURL(/\/contacts$/);
  await page.getByLabel('Segment').selectOption({ label: 'Newsletter readers' });
  await expect(page.getByTestId('contact-row')).toHaveCount(1);
  await expect(page.getByTestId('contact-row')).toHaveAttribute('data-email', 'ada@example.com');
  await shot(page, 'contacts-filtered');
  // On a phone: the list and the contact's page.
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'contacts-filtered-390');
  await page.goto(contactUrl);
  await expect(page.getByTestId('contact-segment')).toHaveCount(1);
  await shot(page, 'contact-detail-390');
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/contacts');
  await page.getByLabel('Segment').selectOption({ label: 'Customers' });
  await expect(page.getByTestId('contact-row')).toHaveCount(2);
  await expect(contactRow(page, 'ada@example.com')).toHaveCount(0);
  await page.getByLabel('Search').fill('nobody@');
  await expect(page.getByTestId('contacts-empty')).toHaveAttribute('data-filtered', 'true');

  // Deleted from everything, after a confirmation naming its segments.
  await page.goto(contactUrl);
  await page.getByRole('button', { name: 'Delete contact' }).click();
  const remove = page.getByTestId('delete-contact-dialog');
  await expect(remove.getByTestId('delete-contact-segments')).toHaveText('It leaves 1 segment: Newsletter readers.');
  await shot(page, 'contact-delete-confirm', { fullPage: false });
  await remove.getByRole('button', { name: 'Delete contact' }).click();
  await expect(page).toHaveURL(/\/contacts$/);
  await expect(page.getByTestId('contact-row')).toHaveCount(2);
  await expect(contactRow(page, 'ada@example.com')).toHaveCount(0);
  await page.goto(contactUrl);
  await expect(page.getByTestId('contact-not-found')).toContainText('Contact not found');
  await page.goto('/contacts/not-a-contact');
  await expect(page.getByTestId('contact-not-found')).toBeVisible();
});

test("a contact's page lists every topic with where it stands, and joins or leaves one at once", async ({ page }) => {
  await signUp(page, uniqueEmail('e2e-contact-topics'), { landOn: '/' });
  const contact = await trpcMutation<{ id: string }>(page, 'contacts.create', { email: 'ada@example.com', first_name: 'Ada' });

  // No topic yet: the way to make one.
  await page.goto(`/contacts/${contact.id}`);
  const section = page.getByTestId('contact-topics');
  await expect(section.getByTestId('no-topics')).toContainText('no topics yet');
  await expect(section.getByRole('link', { name: 'Create one' })).toHaveAttribute('href', '/contacts/topics');
  await shot(page, 'contact-topics-none');

  // Two topics: a contact who never chose is in the opt-in one and out of the opt-out one.
  const news = await trpcMutation<{ id: string }>(page, 'topics.create', { name: 'Product news', description: 'New features, once a month.', default_subscription: 'opt_in' });
  const digest = await trpcMutation<{ id: string }>(page, 'topics.create', { name: 'Weekly digest', default_subscription: 'opt_out' });
  await page.reload();
  await expect(section.getByTestId('contact-topic')).toHaveCount(2);
  await expect(section.getByTestId('contact-topic-name')).toHaveText(['Product news', 'Weekly digest']);
  await expect(contactTopic(page, 'Product news').getByTestId('contact-topic-state')).toHaveText('Subscribed');
  await expect(contactTopic(page, 'Product news').getByTestId('contact-topic-default')).toHaveText('Opt-in topic: contacts receive it until they leave the topic.');
  await expect(contactTopic(page, 'Weekly digest').getByTestId('contact-topic-state')).toHaveText('Not subscribed');
  await expect(page.getByRole('switch', { name: 'Subscribed to Product news' })).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByRole('switch', { name: 'Subscribed to Weekly digest' })).toHaveAttribute('aria-checked', 'false');
  await shot(page, 'contact-topics-defaults');

  // Leaving one and joining the other is saved at once, as the contact's own choices.
  await page.getByRole('switch', { name: 'Subscribed to Product news' }).click();
  await expect(contactTopic(page, 'Product news')).toHaveAttribute('data-subscription', 'opt_out');
  await expect(contactTopic(page, 'Product news').getByTestId('contact-topic-state')).toHaveText('Not subscribed');
  await page.getByRole('switch', { name: 'Subscribed to Weekly digest' }).click();
  await expect(contactTopic(page, 'Weekly digest')).toHaveAttribute('data-subscription', 'opt_in');
  const saved = await trpcQuery<{ data: Array<{ id: string; subscription: string }> }>(page, 'contactTopics.list', { idOrEmail: contact.id });
  expect(saved.data).toEqual([
    expect.objectContaining({ id: news.id, subscription: 'opt_out' }),
    expect.objectContaining({ id: digest.id, subscription: 'opt_in' }),
  ]);
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Subscribed to Product news' })).toHaveAttribute('aria-checked', 'false');
  await expect(page.getByRole('switch', { name: 'Subscribed to Weekly digest' })).toHaveAttribute('aria-checked', 'true');
  await shot(page, 'contact-topics-chosen');

  // A refusal is shown in the server's words, and the switch stays as it was.
  await trpcMutation(page, 'topics.delete', { id: digest.id });
  await page.getByRole('switch', { name: 'Subscribed to Weekly digest' }).click();
  await expect(section.getByTestId('error-message')).toContainText('not found');
  await expect(page.getByRole('switch', { name: 'Subscribed to Weekly digest' })).toHaveAttribute('aria-checked', 'true');

  // In test mode the choices are read, not changed.
  await page.context().addCookies([{ name: 'eumail_mode', value: 'test', url: page.url() }]);
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Subscribed to Product news' })).toBeDisabled();
});

test('a segment defined by rules is made, shows its rules and their live count, has them changed, and takes its contacts from them', async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, uniqueEmail('e2e-rule-segments'), { landOn: '/' });
  await trpcMutation(page, 'contactProperties.create', { key: 'plan', type: 'string' });
  await trpcMutation(page, 'contactProperties.create', { key: 'seats', type: 'number' });
  const readers = await trpcMutation<{ id: string }>(page, 'audiences.create', { name: 'Newsletter readers' });
  const ada = await trpcMutation<{ id: string }>(page, 'contacts.create', { email: 'ada@example.com', properties: { plan: 'Pro', seats: 12 }, segments: [{ id: readers.id }] });
  await trpcMutation(page, 'contacts.create', { email: 'grace@example.com', properties: { plan: 'Free', seats: 2 } });
  await trpcMutation(page, 'contacts.create', { email: 'linus@example.net', properties: { plan: 'Pro' }, unsubscribed: true });
  await trpcMutation(page, 'contacts.create', { email: 'alan@example.org', properties: { seats: 40 } });

  // Made from the audiences page: a name, "Defined by rules", and its conditions, checked before sending.
  await page.goto('/audiences');
  await page.getByRole('button', { name: 'Create audience' }).click();
  const create = page.getByTestId('create-audience-dialog');
  await create.getByLabel('Name').fill('Pro customers');
  await create.getByRole('radio', { name: /Defined by rules/ }).check();
  const conditions = create.getByTestId('rule-condition');
  await expect(conditions).toHaveCount(1);
  await expect(conditions.first().getByLabel('Activity')).toHaveValue('opened_or_clicked');
  await conditions.first().getByLabel('Within (days)').fill('0');
  await create.getByRole('button', { name: 'Create audience' }).click();
  await expect(conditions.first().getByTestId('field-error')).toHaveText('the days must be a whole number from 1 to 3,650');
  await create.getByRole('button', { name: 'Property condition' }).click();
  await conditions.nth(1).getByLabel('Property').selectOption('plan');
  await expect(conditions.nth(1).getByLabel('Comparison').locator('option')).toHaveText(['is', 'is not', 'contains', 'has a value', 'has no value']);
  await conditions.nth(1).getByLabel('Value').fill('Pro');
  await create.getByRole('button', { name: 'Remove condition 1' }).click();
  await expect(conditions).toHaveCount(1);
  await shot(page, 'segment-create-rules', { fullPage: false });
  await create.getByRole('button', { name: 'Create audience' }).click();

  // Its page: the rules in words, whom they match now (not the one unsubscribed from everything), and those contacts.
  await expect(page).toHaveURL(/\/audiences\/[0-9a-f-]{36}$/);
  const segmentUrl = page.url();
  await expect(page.getByRole('heading', { name: 'Pro customers', level: 1 })).toBeVisible();
  await expect(page.getByTestId('audience-detail').getByTestId('audience-rule-based')).toHaveText('Defined by rules');
  const rules = page.getByTestId('segment-rules');
  await expect(rules.getByTestId('segment-condition')).toHaveText(['plan is "Pro"']);
  await expect(rules.getByTestId('segment-matching-now')).toHaveText('1 contact');
  await expect(page.getByTestId('contact-row')).toHaveCount(1);
  await expect(page.getByTestId('contact-row')).toHaveAttribute('data-email', 'ada@example.com');
  // Its contacts are its rules': none added, imported or deleted by hand; their subscription may change.
  await expect(page.getByRole('button', { name: 'Add contact' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Import CSV' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete ada@example.com' })).toHaveCount(0);
  await expect(page.getByRole('checkbox', { name: 'Select ada@example.com' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Edit ada@example.com' })).toBeVisible();
  await shot(page, 'segment-rules');

  // The rules changed: any of two conditions, evaluated at once.
  await rules.getByRole('button', { name: 'Edit rules' }).click();
  const edit = page.getByTestId('edit-rules-dialog');
  await expect(edit.getByTestId('rule-condition').first().getByLabel('Value')).toHaveValue('Pro');
  await edit.getByLabel('Match').selectOption('any');
  await edit.getByRole('button', { name: 'Property condition' }).click();
  const seats = edit.getByTestId('rule-condition').nth(1);
  await seats.getByLabel('Property').selectOption('seats');
  await seats.getByLabel('Comparison').selectOption({ label: 'is more than' });
  await seats.getByLabel('Value').fill('thirty');
  await edit.getByRole('button', { name: 'Save rules' }).click();
  await expect(seats.getByTestId('field-error')).toHaveText('must be a number');
  await seats.getByLabel('Value').fill('30');
  await shot(page, 'segment-edit-rules', { fullPage: false });
  await edit.getByRole('button', { name: 'Save rules' }).click();
  await expect(edit).toBeHidden();
  await expect(rules).toContainText('Contacts who match any of these');
  await expect(rules.getByTestId('segment-condition')).toHaveText(['plan is "Pro"', 'seats is more than 30']);
  await expect(rules.getByTestId('segment-matching-now')).toHaveText('2 contacts');
  await expect(page.getByTestId('contact-row')).toHaveCount(2);

  // A refusal the server makes about one condition shows under it: a property deleted meanwhile.
  await trpcMutation(page, 'contactProperties.delete', { id: (await trpcQuery<{ data: Array<{ id: string; key: string }> }>(page, 'contactProperties.list', {})).data.find((property) => property.key === 'seats')!.id });
  await rules.getByRole('button', { name: 'Edit rules' }).click();
  await edit.getByRole('button', { name: 'Save rules' }).click();
  await expect(edit.getByTestId('rule-condition').nth(1).getByTestId('field-error')).toContainText('no contact property has the key "seats"');
  await edit.getByRole('button', { name: 'Cancel' }).click();
  await expect(edit).toBeHidden();

  // A member's row leads to the contact's page, where the segment is its rules' to leave.
  await page.getByTestId('contact-row').filter({ hasText: 'ada@example.com' }).getByRole('link', { name: 'ada@example.com' }).click();
  await expect(page).toHaveURL(new RegExp(`/contacts/${ada.id}$`));
  const adaSegments = page.getByTestId('contact-segments');
  await expect(adaSegments.getByTestId('contact-segment')).toHaveCount(2);
  await expect(adaSegments.locator('[data-testid="contact-segment"]', { hasText: 'Pro customers' }).getByTestId('contact-segment-ruled')).toHaveText('by its rules');
  await expect(adaSegments.getByRole('button', { name: 'Remove from Pro customers' })).toHaveCount(0);
  await expect(adaSegments.getByRole('button', { name: 'Remove from Newsletter readers' })).toBeVisible();
  await shot(page, 'contact-rule-segment');

  // The list: each kind, the live count beside the rule segment's members. Counted now: with seats
  // gone, Alan no longer matches, though he stays a member until the rules are evaluated again.
  await page.goto('/audiences');
  const segmentRow = page.locator('[data-testid="audience-row"][data-rules="true"]');
  await expect(segmentRow).toContainText('Pro customers');
  await expect(segmentRow.getByTestId('audience-contact-count')).toHaveText('2');
  await expect(segmentRow.getByTestId('audience-matching-now')).toHaveText('1 match now');
  await expect(page.locator('[data-testid="audience-row"][data-rules="false"]').getByTestId('audience-matching-now')).toHaveCount(0);
  await expect(page.getByTestId('contacts-total')).toHaveText('4 contacts in all.');
  await shot(page, 'audiences-with-rule-segment');

  // Deleting says what happens: a rule segment goes alone; a list takes the contacts it alone holds.
  await segmentRow.getByRole('button', { name: 'Delete Pro customers' }).click();
  const remove = page.getByTestId('delete-audience-dialog');
  await expect(remove.getByTestId('delete-audience-contacts')).toContainText('Its contacts stay contacts');
  await shot(page, 'segment-delete-confirm', { fullPage: false });
  await remove.getByRole('button', { name: 'Delete audience' }).click();
  await expect(remove).toBeHidden();
  await page.getByRole('button', { name: 'Delete Newsletter readers' }).click();
  await expect(remove.getByTestId('delete-audience-contacts')).toContainText('contacts in no other audience are deleted');
  await remove.getByRole('button', { name: 'Delete audience' }).click();
  await expect(page.getByTestId('audiences-empty')).toBeVisible();
  await page.goto(segmentUrl);
  await expect(page.getByTestId('audience-not-found')).toBeVisible();
  // Ada was in the list alone (the rule segment had gone): deleted with it; the others, in no list, stay.
  const left = await trpcQuery<{ data: Array<{ email: string }> }>(page, 'contacts.list', {});
  expect(left.data.map((contact) => contact.email).sort()).toEqual(['alan@example.org', 'grace@example.com', 'linus@example.net']);
});

test('the broadcast composer sends under a topic: only the contacts in it are counted, and the draft keeps it', async ({ page }) => {
  await signUp(page, uniqueEmail('e2e-broadcast-topic'), { landOn: '/' });
  const readers = await trpcMutation<{ id: string }>(page, 'audiences.create', { name: 'Newsletter' });
  const news = await trpcMutation<{ id: string }>(page, 'topics.create', { name: 'Product news', default_subscription: 'opt_in' });
  await trpcMutation(page, 'contacts.create', { email: 'ada@example.com', segments: [{ id: readers.id }] });
  await trpcMutation(page, 'contacts.create', { email: 'grace@example.com', segments: [{ id: readers.id }], topics: [{ id: news.id, subscription: 'opt_out' }] });
  await trpcMutation(page, 'contacts.create', { email: 'alan@example.org', segments: [{ id: readers.id }] });

  await page.goto('/broadcasts/new');
  const form = page.getByTestId('broadcast-form');
  await form.getByLabel('Audience').selectOption({ label: 'Newsletter · 3 contacts' });
  await form.getByLabel('From').fill('news@example.com');
  await form.getByLabel('Subject').fill('November news');
  await form.getByLabel('HTML').fill('<p>Hello</p><p><a href="{{ unsubscribe_url }}">Unsubscribe</a></p>');
  await expect(form.getByTestId('audience-subscribed')).toHaveText('3 subscribed contacts');
  const topic = form.getByLabel('Topic');
  await expect(topic).toHaveValue('');
  await expect(topic).toHaveAccessibleDescription(/Without a topic every subscribed contact of the audience gets it/);
  // Under the topic, the one who left it is not counted.
  await topic.selectOption({ label: 'Product news' });
  await expect(form.getByTestId('audience-subscribed')).toHaveText('2 subscribed contacts in the topic');
  await expect(topic).toHaveAccessibleDescription(/Only the audience's contacts in Product news get it, and its unsubscribe link leaves Product news only/);
  await shot(page, 'broadcast-topic');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page).toHaveURL(/\/broadcasts\/[0-9a-f-]{36}$/);
  const id = page.url().split('/').pop()!;
  await expect(form.getByLabel('Topic')).toHaveValue(news.id);
  expect((await trpcQuery<{ topicId: string | null }>(page, 'broadcasts.get', { id })).topicId).toBe(news.id);

  // Taken off again: saved as none.
  await form.getByLabel('Topic').selectOption({ label: 'No topic' });
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('unsaved-changes')).toHaveCount(0);
  await expect.poll(async () => (await trpcQuery<{ topicId: string | null }>(page, 'broadcasts.get', { id })).topicId).toBeNull();
});

test('in test mode contacts are read, and their changes wait for Live', async ({ page }) => {
  await signUp(page, uniqueEmail('e2e-contacts-test-mode'), { landOn: '/' });
  const contact = await trpcMutation<{ id: string }>(page, 'contacts.create', { email: 'ada@example.com', first_name: 'Ada' });
  await page.context().addCookies([{ name: 'eumail_mode', value: 'test', url: page.url() }]);

  await page.goto('/contacts');
  await expect(page.getByTestId('contact-row')).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Add contact' })).toBeDisabled();
  await expect(page.getByTestId('live-only-note')).toContainText('add them in Live');
  await page.goto('/contacts/properties');
  await expect(page.getByRole('button', { name: 'Create property' })).toBeDisabled();
  await page.goto('/contacts/topics');
  await expect(page.getByRole('button', { name: 'Create topic' })).toBeDisabled();

  await page.goto(`/contacts/${contact.id}`);
  await expect(page.getByTestId('live-only-note')).toContainText('change them in Live');
  await expect(page.getByRole('switch', { name: 'Unsubscribed from everything' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Edit names' })).toBeDisabled();
  await shot(page, 'contact-detail-test-mode');
});
