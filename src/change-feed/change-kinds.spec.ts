import { kindsOf } from './change-kinds.js';

const change = (field: string) => ({ field, removed: '', added: 'x' });

describe('kindsOf', () => {
  it('names a new bug create, whatever its initial values', () => {
    expect(kindsOf({ action: 'create', changes: [change('cc'), change('groups')], comment: { id: 1, text: 'description', isPrivate: false } })).toEqual(['create']);
  });

  it('names flags, access and comments of an update besides the update', () => {
    expect(kindsOf({ action: 'modify', changes: [change('status')] })).toEqual(['update']);
    expect(kindsOf({ action: 'modify', changes: [change('groups'), change('flagtypes.name')] })).toEqual(['update', 'flag', 'access']);
    expect(kindsOf({ action: 'modify', changes: [], comment: { id: 1, text: 'x', isPrivate: false } })).toEqual(['comment']);
  });

  it('names an attachment change, and the flags it set', () => {
    expect(kindsOf({ action: 'attachment', changes: [change('flagtypes.name')] })).toEqual(['attachment', 'flag']);
    expect(kindsOf({ action: 'comment', changes: [] })).toEqual(['comment']);
  });
});
