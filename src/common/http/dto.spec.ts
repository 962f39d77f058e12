import { IsArray, IsBoolean, IsInt, IsOptional, IsString } from 'class-validator';
import { BooleanParam, ScalarParam, TextListParam, toDto } from './dto.js';
import { RequestParams } from './request-params.js';
import { errorCode } from '../errors/testing.js';

class SampleInput {
  @IsString() @ScalarParam() name: string;
  @IsOptional() @IsBoolean() @BooleanParam() is_active?: boolean;
  @IsOptional() @IsInt() sortkey?: number;
  @IsOptional() @IsArray() @IsString({ each: true }) @TextListParam({ commas: true }) names?: string[];
}

const params = (query: Record<string, unknown>, body?: Record<string, unknown>) => RequestParams.merge(query, body);

describe('toDto (typed input with Bugzilla encodings)', () => {
  it('accepts Bugzilla booleans, repeated keys for scalars and comma lists', () => {
    const input = toDto(SampleInput, params({ name: ['a', 'b'], is_active: 'False', names: 'x,y' }), 'Sample.create');
    expect(input).toEqual(Object.assign(new SampleInput(), { name: 'a', is_active: false, names: ['x', 'y'] }));
  });
  it('drops unknown keys instead of refusing them (clients.md)', () => {
    expect(toDto(SampleInput, params({}, { name: 'a', real_name: 'x' }), 'Sample.create')).not.toHaveProperty('real_name');
  });
  it('credentials and protocol keys never reach a DTO', () => {
    expect(toDto(SampleInput, params({ Bugzilla_api_key: 'k' }, { name: 'a' }), 'Sample.create')).not.toHaveProperty('Bugzilla_api_key');
  });
  it('a non-numeric number is 52, another wrong type is 53', () => {
    expect(errorCode(() => toDto(SampleInput, params({}, { name: 'a', sortkey: 'ten' }), 'Sample.create'))).toBe(52);
    expect(errorCode(() => toDto(SampleInput, params({}, { name: { a: 1 } }), 'Sample.create'))).toBe(53);
    expect(errorCode(() => toDto(SampleInput, params({}, {}), 'Sample.create'))).toBe(53);
  });
  it('an input that sends nothing the DTO declares is the empty one (validity asked once per class), unknown keys dropped', () => {
    class Optional {
      @IsOptional() @IsBoolean() @BooleanParam() permissive?: boolean;
    }
    expect(toDto(Optional, params({ other: 'x' }), 'Sample.get')).toEqual(new Optional());
    expect(toDto(Optional, params({ permissive: '1' }), 'Sample.get')).toEqual(Object.assign(new Optional(), { permissive: true }));
    expect(errorCode(() => toDto(SampleInput, params({ other: 'x' }), 'Sample.create'))).toBe(53);
  });
});
