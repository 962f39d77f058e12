import { TrackerError } from '../common/errors/index.js';
import { applyControlInput, describeControl, isEmptyControl, isLegalCombination, parseControlValue, parseGroupControls, EMPTY_SETTINGS } from './group-controls.js';

const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return (err as TrackerError).code;
  }
  return undefined;
};

describe('group controls (Bugzilla set_group_controls)', () => {
  it('control values by name, any case, or number 0-3; anything else is 32000', () => {
    expect(['na', 'Shown', 'DEFAULT', 'mandatory', '0', 3].map((v) => parseControlValue(v, 'membercontrol'))).toEqual([0, 1, 2, 3, 0, 3]);
    expect(codeOf(() => parseControlValue('always', 'membercontrol'))).toBe(32000);
    expect(codeOf(() => parseControlValue(4, 'othercontrol'))).toBe(32000);
  });

  it('the legality table: NA only with NA, Shown with anything, Default with all but Shown, Mandatory only with Mandatory', () => {
    const legal = [0, 1, 2, 3].map((member) => [0, 1, 2, 3].map((other) => (isLegalCombination(member, other) ? '+' : '-')).join(''));
    expect(legal).toEqual(['+---', '++++', '+-++', '---+']);
  });

  it('applies an input over the current row, keeping what it does not name, and refuses an illegal result', () => {
    const current = { ...EMPTY_SETTINGS, membercontrol: 3, othercontrol: 3, entry: true };
    expect(applyControlInput(current, { group: 'g', canedit: true }, 'g')).toEqual({ ...current, canedit: true });
    expect(codeOf(() => applyControlInput(current, { group: 'g', othercontrol: 0 }, 'g'))).toBe(32000);
  });

  it('an empty row (NA/NA, no switch) is not stored, and is described as nothing', () => {
    expect(isEmptyControl(EMPTY_SETTINGS)).toBe(true);
    expect(describeControl('g', EMPTY_SETTINGS)).toBe('');
    expect(describeControl('g', { ...EMPTY_SETTINGS, membercontrol: 2, othercontrol: 0, entry: true, editbugs: true })).toBe('g:default/na,entry,editbugs');
  });

  it('group_controls must be an array of objects naming a group (53, 50)', () => {
    expect(parseGroupControls([{ group: ' g ', membercontrol: 'shown', entry: 1 }])).toEqual([{ group: 'g', membercontrol: 1, entry: true }]);
    expect(codeOf(() => parseGroupControls({ group: 'g' }))).toBe(53);
    expect(codeOf(() => parseGroupControls(['g']))).toBe(53);
    expect(codeOf(() => parseGroupControls([{ membercontrol: 'na' }]))).toBe(50);
  });
});
