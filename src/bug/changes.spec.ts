import {
  ChangeSet,
  apiFieldName,
  diffFlags,
  flagSummary,
  formatBoolean,
  formatChangeValue,
  formatKeywords,
  formatList,
  formatTimeAdded,
  formatTimeRemoved,
  formatWorkTime,
  internalFieldName,
  mirroredDependencyChanges,
} from './changes.js';

describe('apiFieldName — updates.md internal → changes key table', () => {
  it.each([
    ['bug_status', 'status'],
    ['resolution', 'resolution'],
    ['short_desc', 'summary'],
    ['bug_file_loc', 'url'],
    ['status_whiteboard', 'whiteboard'],
    ['rep_platform', 'platform'],
    ['bug_severity', 'severity'],
    ['dependson', 'depends_on'],
    ['blocked', 'blocks'],
    ['dup_id', 'dupe_of'],
    ['everconfirmed', 'is_confirmed'],
    ['cclist_accessible', 'is_cc_accessible'],
    ['reporter_accessible', 'is_creator_accessible'],
    ['bug_group', 'groups'],
    ['product_id', 'product'],
    ['component_id', 'component'],
    ['assigned_to', 'assigned_to'],
    ['qa_contact', 'qa_contact'],
    ['flagtypes.name', 'flagtypes.name'],
    ['attachments.isobsolete', 'attachments.isobsolete'],
    ['longdescs.isprivate', 'longdescs.isprivate'],
    ['keywords', 'keywords'],
    ['cf_os_version', 'cf_os_version'],
  ])('%s → %s', (internal, api) => {
    expect(apiFieldName(internal)).toBe(api);
  });

  it('leaves API names unchanged, so it is safe to apply twice', () => {
    expect(apiFieldName('status')).toBe('status');
    expect(apiFieldName(apiFieldName('short_desc'))).toBe('summary');
  });

  it('internalFieldName reverses it for input keys', () => {
    expect(internalFieldName('summary')).toBe('short_desc');
    expect(internalFieldName('is_confirmed')).toBe('everconfirmed');
    expect(internalFieldName('product')).toBe('product');
    expect(internalFieldName('rep_platform')).toBe('rep_platform');
  });
});

describe('value formatting — updates.md "Values are strings"', () => {
  it('joins lists with ", "', () => {
    expect(formatList(['a@x', 'b@x'])).toBe('a@x, b@x');
    expect(formatChangeValue([12, 15])).toBe('12, 15');
    expect(formatList([])).toBe('');
  });

  it('lists keywords alphabetically, ignoring case', () => {
    expect(formatKeywords(['qux', 'Bar', 'quo'])).toBe('Bar, quo, qux');
  });

  it('writes booleans as "0"/"1"', () => {
    expect(formatChangeValue(true)).toBe('1');
    expect(formatChangeValue(false)).toBe('0');
    expect(formatBoolean(1)).toBe('1');
    expect(formatBoolean(null)).toBe('0');
  });

  it('writes missing values as ""', () => {
    expect(formatChangeValue(null)).toBe('');
    expect(formatChangeValue(undefined)).toBe('');
  });

  it('time fields: removed with two decimals, added as sent', () => {
    expect(formatTimeRemoved(0)).toBe('0.00');
    expect(formatTimeRemoved('10.5')).toBe('10.50');
    expect(formatTimeAdded(10.5)).toBe('10.5');
    expect(formatTimeAdded(6)).toBe('6');
    expect(formatWorkTime(2.5)).toBe('2.50');
  });
});

describe('flag summaries — updates.md "Flag changes"', () => {
  it('is <type name><status> plus (<requestee>) when set', () => {
    expect(flagSummary({ name: 'review', status: '?', requestee: 'dev@example.com' })).toBe('review?(dev@example.com)');
    expect(flagSummary({ name: 'approval', status: '+' })).toBe('approval+');
  });

  it('diffs two states into ", "-joined sides', () => {
    const before = [{ name: 'review', status: '?', requestee: 'dev@example.com', setter: 'me' }];
    const after = [
      { name: 'review', status: '+', setter: 'dev' },
      { name: 'approval', status: '?', setter: 'dev' },
    ];
    expect(diffFlags(before, after)).toEqual({ removed: 'review?(dev@example.com)', added: 'review+, approval?' });
  });

  it('clearing (X) shows added ""', () => {
    expect(diffFlags([{ name: 'review', status: '+' }], [])).toEqual({ removed: 'review+', added: '' });
  });

  it('returns null when nothing changed', () => {
    const flags = [{ name: 'review', status: '+', setter: 'a' }];
    expect(diffFlags(flags, [...flags])).toBeNull();
  });

  it('pairs identical summaries one by one', () => {
    const two = [{ name: 'qa', status: '+', setter: 'a' }, { name: 'qa', status: '+', setter: 'a' }];
    expect(diffFlags(two, two.slice(1))).toEqual({ removed: 'qa+', added: '' });
  });
});

describe('ChangeSet', () => {
  it('produces {field: {removed, added}} with API names', () => {
    const changes = new ChangeSet()
      .record('bug_status', 'CONFIRMED', 'RESOLVED')
      .record('resolution', '', 'FIXED')
      .record('keywords', ['bar'], ['qux', 'quo'])
      .toChanges();
    expect(changes).toEqual({
      status: { removed: 'CONFIRMED', added: 'RESOLVED' },
      resolution: { removed: '', added: 'FIXED' },
      keywords: { removed: 'bar', added: 'quo, qux' },
    });
  });

  it('skips no-op changes', () => {
    const set = new ChangeSet().record('short_desc', 'same', 'same').record('cc', [], []).record('deadline', null, '');
    expect(set.isEmpty).toBe(true);
    expect(set.toChanges()).toEqual({});
  });

  it('formats time fields and compares them numerically', () => {
    const set = new ChangeSet().record('estimated_time', 0, 10.5).record('remaining_time', '6.00', 6);
    expect(set.toChanges()).toEqual({ estimated_time: { removed: '0.00', added: '10.5' } });
  });

  it('writes dupe_of and is_confirmed as strings', () => {
    expect(new ChangeSet().record('dup_id', null, 42).record('everconfirmed', false, true).toChanges()).toEqual({
      dupe_of: { removed: '', added: '42' },
      is_confirmed: { removed: '0', added: '1' },
    });
  });

  it('a deadline being set shows removed ""', () => {
    expect(new ChangeSet().record('deadline', null, '2024-01-31').toChanges()).toEqual({ deadline: { removed: '', added: '2024-01-31' } });
  });

  it('recording a field again replaces the entry, and a later no-op removes it', () => {
    const set = new ChangeSet().record('priority', 'P3', 'P1').record('summary', 'a', 'b').record('priority', 'P3', 'P2');
    expect(Object.keys(set.toChanges())).toEqual(['priority', 'summary']);
    expect(set.toChanges().priority).toEqual({ removed: 'P3', added: 'P2' });
    set.record('priority', 'P3', 'P3');
    expect(set.has('priority')).toBe(false);
  });

  it('keeps the recorded name for history rows and serialises as changes', () => {
    const set = new ChangeSet().record('bug_status', 'CONFIRMED', 'IN_PROGRESS');
    expect(set.entries()).toEqual([{ field: 'bug_status', removed: 'CONFIRMED', added: 'IN_PROGRESS' }]);
    expect(set.has('status')).toBe(true);
    expect(JSON.parse(JSON.stringify(set))).toEqual({ status: { removed: 'CONFIRMED', added: 'IN_PROGRESS' } });
  });

  it('keeps flagtypes.name as is', () => {
    const diff = diffFlags([], [{ name: 'review', status: '?', requestee: 'd@x' }])!;
    expect(new ChangeSet().record('flagtypes.name', diff.removed, diff.added).toChanges()).toEqual({
      'flagtypes.name': { removed: '', added: 'review?(d@x)' },
    });
  });
});

describe('mirroredDependencyChanges — the other end of a dependency, on Create and Update Bug', () => {
  it('a bug added to depends_on gets this bug in its blocks, and the reverse; removals likewise', () => {
    expect(mirroredDependencyChanges(7, { added: [1], removed: [2] }, { added: [3], removed: [4] })).toEqual([
      { bugId: 1, field: 'blocks', removed: '', added: '7' },
      { bugId: 2, field: 'blocks', removed: '7', added: '' },
      { bugId: 3, field: 'depends_on', removed: '', added: '7' },
      { bugId: 4, field: 'depends_on', removed: '7', added: '' },
    ]);
  });

  it('nothing changed, nothing recorded', () => {
    expect(mirroredDependencyChanges(7, { added: [], removed: [] }, { added: [], removed: [] })).toEqual([]);
  });
});
