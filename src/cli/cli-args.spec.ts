import { optionValue, optionValues, parseArgs, UsageError } from './cli-args.js';

describe('admin command line arguments', () => {
  const specs = [{ name: 'name' }, { name: 'mandatory', flag: true }];

  it('separates positionals from --name value, --name=value and flags', () => {
    const parsed = parseArgs(['a@example.com', '--name', 'Ann Example', 'extra', '--mandatory'], specs);
    expect(parsed.positionals).toEqual(['a@example.com', 'extra']);
    expect(optionValue(parsed, 'name')).toBe('Ann Example');
    expect(parsed.options.get('mandatory')).toBe(true);
    expect(optionValue(parseArgs(['--name=x=y'], specs), 'name')).toBe('x=y');
    expect(optionValue(parseArgs(['--name='], specs), 'name')).toBe('');
  });

  it('collects a repeatable option in order and refuses a missing required one', () => {
    const withValues = [{ name: 'value', repeatable: true }, { name: 'type', required: true }];
    const parsed = parseArgs(['--type', 'SINGLE_SELECT', '--value', 'red', '--value=green'], withValues);
    expect(optionValues(parsed, 'value')).toEqual(['red', 'green']);
    expect(optionValues(parseArgs(['--type', 'x'], withValues), 'value')).toEqual([]);
    expect(() => parseArgs(['--value', 'red'], withValues)).toThrow(new UsageError('--type is required'));
  });

  it('takes everything after -- as positionals (values that start with dashes)', () => {
    expect(parseArgs(['--', '--name', '-1'], specs).positionals).toEqual(['--name', '-1']);
  });

  it('refuses unknown options, a missing value, a valued flag and a repeated option (usage errors)', () => {
    expect(() => parseArgs(['--colour', 'red'], specs)).toThrow(new UsageError('unknown option --colour'));
    expect(() => parseArgs(['--name'], specs)).toThrow(new UsageError('--name needs a value'));
    expect(() => parseArgs(['--mandatory=1'], specs)).toThrow(new UsageError('--mandatory takes no value'));
    expect(() => parseArgs(['--name', 'a', '--name', 'b'], specs)).toThrow(new UsageError('--name given twice'));
  });
});
