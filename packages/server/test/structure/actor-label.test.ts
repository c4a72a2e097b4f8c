import { describe, expect, it } from 'vitest';
import { actorLabelOf } from '../../src/structure/activity-entries.js';

describe('actorLabelOf', () => {
  it('names the actor by first and last name', () => {
    expect(actorLabelOf({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' })).toBe(
      'Ada Lovelace',
    );
    expect(actorLabelOf({ firstName: '', lastName: 'Lovelace', email: 'ada@example.com' })).toBe('Lovelace');
  });

  it('falls back to the username, never the e-mail address', () => {
    expect(actorLabelOf({ firstName: '', lastName: '', email: 'ada.l@example.com' })).toBe('ada.l');
    expect(actorLabelOf({ firstName: ' ', lastName: '', email: 'x@y.z' })).toBe('x');
  });
});
