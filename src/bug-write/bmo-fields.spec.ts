import { TrackerError } from '../common/errors/index.js';
import { legalBugType } from '../params/parameter-definitions.js';
import { filedVia, newBugType } from './bmo-fields.js';

const codeOf = (f: () => unknown): unknown[] | undefined => {
  try {
    f();
    return undefined;
  } catch (err) {
    if (err instanceof TrackerError) return [err.code, err.errorName];
    throw err;
  }
};

describe("BMO's bug type", () => {
  it('is one of defect, enhancement and task, named in any case', () => {
    expect(legalBugType(' Enhancement ')).toBe('enhancement');
    expect(codeOf(() => legalBugType('--'))?.[0]).toBe(51);
    expect(codeOf(() => legalBugType('feature'))?.[0]).toBe(51);
    expect(codeOf(() => legalBugType('  '))?.[0]).toBe(50);
  });

  it("of a new bug: the one asked for, else the component's default, else the installation's", () => {
    expect(newBugType('task', 'enhancement', 'defect')).toBe('task');
    expect(newBugType(undefined, 'enhancement', 'defect')).toBe('enhancement');
    expect(newBugType('', null, 'defect')).toBe('defect');
    expect(codeOf(() => newBugType('bogus', null, 'defect'))?.[0]).toBe(51);
  });
});

describe("BMO's filed_via", () => {
  it('is api when not said, one of its methods as said, else unknown', () => {
    expect(filedVia(undefined)).toBe('api');
    expect(filedVia('standard_form')).toBe('standard_form');
    expect(filedVia('custom_form')).toBe('custom_form');
    expect(filedVia('carrier pigeon')).toBe('unknown');
  });
});
