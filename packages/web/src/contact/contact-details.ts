/**
 * The static contact details on /contact. Planwright is self-hostable, so these are one place for an
 * operator to change; the values here are placeholders on a reserved domain.
 */
export const CONTACT_DETAILS = {
  email: 'hello@planwright.example',
  officeHours: 'Monday to Friday, 9:00 to 17:00 (CET)',
  responseTime: 'We answer within one business day.',
} as const;
