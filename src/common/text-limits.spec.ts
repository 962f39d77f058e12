import { IntersectionType } from './openapi/openapi-decorators.js';
import { IsOptional, IsString } from 'class-validator';
import { Column, Entity, PrimaryColumn } from 'typeorm';
import { Errors } from './errors/index.js';
import { toDto } from './http/dto.js';
import { RequestParams } from './http/request-params.js';
import { LONG_TEXT_MAX, MaxText, checkTextLimit, columnLength, exceedsLimit, freeText, textLength } from './text-limits.js';

@Entity()
class Sample {
  @PrimaryColumn({ type: 'int' })
  id: number;

  @Column({ type: 'varchar', length: 12 })
  name: string;
}

class Named {
  @IsOptional() @IsString() @MaxText({ max: 4, error: Errors.PRODUCT_NAME_TOO_LONG, fact: 'name' })
  name?: string;

  @IsOptional() @IsString({ each: true }) @MaxText(freeText(3), { each: true })
  tags?: string[];
}
class Other {
  @IsOptional() @IsString()
  other?: string;
}
class Mixed extends IntersectionType(Other, Named) {}

const input = <T extends object>(type: new () => T, body: Record<string, unknown>) => toDto(type, RequestParams.merge({}, body), 'X.update');
const thrown = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    return error as { code: number; message: string };
  }
  throw new Error('nothing thrown');
};

describe('text limits', () => {
  it('count code points, as Bugzilla and a utf8mb4 column do', () => {
    expect(textLength('😀ab')).toBe(3);
    expect(exceedsLimit('😀ab', 3)).toBe(false);
    expect(exceedsLimit('😀abc', 3)).toBe(true);
    expect(exceedsLimit('x'.repeat(LONG_TEXT_MAX * 3), LONG_TEXT_MAX)).toBe(true);
  });
  it('checkTextLimit throws the limit error with the length, the maximum and the text under its fact', () => {
    expect(() => checkTextLimit('abcd', freeText(4), 'summary')).not.toThrow();
    expect(() => checkTextLimit(undefined, freeText(4), 'summary')).not.toThrow();
    const error = thrown(() => checkTextLimit('abcde', freeText(4), 'summary'));
    expect(error).toMatchObject({ code: 104 });
    expect(error.message).toContain('summary field is too long (5 characters, above the maximum length allowed of 4');
  });
  it('columnLength reads the declared length of an entity column', () => {
    expect(columnLength(Sample, 'name')).toBe(12);
    expect(() => columnLength(Sample, 'id')).toThrow(/not a column with a declared length/);
  });
  it('MaxText makes toDto answer the limit error, for a text and for each text of a list, through mapped types too', () => {
    expect(input(Named, { name: '😀abc', tags: ['abc'] })).toMatchObject({ name: '😀abc' });
    expect(thrown(() => input(Named, { name: 'abcde' }))).toMatchObject({ code: 701, message: expect.stringContaining("'abcde'") });
    expect(thrown(() => input(Named, { tags: ['ok', 'long'] }))).toMatchObject({ code: 104, message: expect.stringContaining('tags field') });
    expect(thrown(() => input(Mixed, { name: 'abcde' }))).toMatchObject({ code: 701 });
    expect(thrown(() => input(Mixed, { name: ['a'] }))).toMatchObject({ code: 53 });
  });
});
