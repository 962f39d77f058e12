import 'reflect-metadata';
import { IsInt, IsString, MetadataStorage, ValidateNested, getMetadataStorage, validateSync } from 'class-validator';
import { Type } from 'class-transformer';
import { keepValidationLookups } from './validation-lookups.js';

// toDto's module keeps the lookups of the global storage; this spec checks them on its own, on that storage.
keepValidationLookups(getMetadataStorage());

const failed = (value: object) => validateSync(value, { whitelist: true }).map((e) => e.property).sort();

class Part {
  @IsInt() count: unknown;
}

class Whole {
  @IsString() name: unknown;
  @ValidateNested() @Type(() => Part) part: unknown;
}

class Derived extends Whole {
  @IsInt() extra: unknown;
}

describe('keepValidationLookups (class-validator rule lookups kept)', () => {
  it('validates as class-validator does, nested and inherited rules included, each time', () => {
    const whole = Object.assign(new Whole(), { name: 1, part: Object.assign(new Part(), { count: 'x' }) });
    expect(failed(whole)).toEqual(['name', 'part']);
    expect(failed(whole)).toEqual(['name', 'part']);
    expect(failed(Object.assign(new Derived(), { name: 'a', part: Object.assign(new Part(), { count: 1 }), extra: 'y' }))).toEqual(['extra']);
  });

  it('answers the same lookup with the same kept array', () => {
    const storage = getMetadataStorage();
    expect(storage.getTargetValidationMetadatas(Whole, '', false, false)).toBe(storage.getTargetValidationMetadatas(Whole, '', false, false));
  });

  it('forgets what it kept when a rule is added later', () => {
    class Late {
      @IsInt() first: unknown;
    }
    const late = Object.assign(new Late(), { first: 1, second: 2 });
    expect(failed(late)).toEqual([]);
    IsString()(Late.prototype, 'second');
    expect(failed(late)).toEqual(['second']);
  });

  it('keeps answers per storage, without touching another', () => {
    const other = new MetadataStorage();
    keepValidationLookups(other);
    expect(other.getTargetValidationMetadatas(Whole, '', false, false)).toEqual([]);
  });
});
