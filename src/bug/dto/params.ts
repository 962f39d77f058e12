/**
 * How the bug routes read their parameters into DTOs, as their services read them before DTOs: Bugzilla clients send
 * one value where a list is meant, a list where one value is meant, numbers where text is meant. Each transform only
 * reshapes; a value of the wrong type is left for the DTO's class-validator rule to refuse (toDto: 52 or 53).
 */
import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '../../common/openapi/openapi-decorators.js';
import { Transform } from 'class-transformer';
import { IsArray, IsBoolean, IsOptional, IsString } from 'class-validator';
import { BooleanParam } from '../../common/http/dto.js';

const isPlain = (value: unknown) => value === null || typeof value !== 'object';
/** A repeated key's values, or the one value as a list of one. */
const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? (value as unknown[]) : [value]);

/**
 * A text field (Create/Update Bug): an array gives its first element (as Bugzilla does), a number or boolean its
 * string, a missing value (`null`, `[]`) the empty text. `keepNull` keeps `null` itself where it means something
 * other than empty (`status`, `resolution`, `dupe_of`: the workflow rules tell them apart). An object stays as it is
 * for `@IsString` to refuse (53).
 */
export const BugTextParam = (options: { keepNull?: boolean } = {}) =>
  Transform(({ value }: { value: unknown }) => {
    if (value === undefined || (value === null && options.keepNull)) return value;
    const first = listOf(value)[0];
    if (first === null || first === undefined) return '';
    return typeof first === 'number' || typeof first === 'boolean' ? String(first) : first;
  });

/**
 * A list field of Create Bug (cc, groups, keywords, blocks …): one value or an array; plain values as text
 * (`blocks: [1, 2]`), split on commas where the field takes comma lists, trimmed, blanks dropped; `null` is the empty
 * list. An object item stays for `@IsString({ each: true })` to refuse (53, naming the field).
 */
export const BugListParam = (options: { commas?: boolean } = {}) =>
  Transform(({ value }: { value: unknown }) => {
    if (value === undefined) return value;
    if (value === null) return [];
    return listOf(value).flatMap((item) => {
      if (!isPlain(item)) return [item];
      const text = String(item);
      return (options.commas ? text.split(',') : [text]).map((s) => s.trim()).filter((s) => s !== '');
    });
  });

const INTEGER = /^-?\d+$/;

/** One integer (`limit=10`): a repeated key gives its first value, blank is "not given"; anything else is left for @IsInt (52). */
export const IntParam = () =>
  Transform(({ value }: { value: unknown }) => {
    const first = listOf(value)[0];
    if (typeof first !== 'string') return first;
    const text = first.trim();
    if (text === '') return undefined;
    return INTEGER.test(text) ? Number(text) : first;
  });

/** Bug ids (`id=1,2&id=3`): repeated or comma lists; an item that is not digits is left for @IsInt (52). */
export const IdListParam = () =>
  Transform(({ value }: { value: unknown }) => {
    if (value === undefined || value === null) return value;
    return listOf(value)
      .flatMap((item) => (typeof item === 'string' ? item.split(',').map((s) => s.trim()).filter((s) => s !== '') : [item]))
      .map((item) => (typeof item === 'string' && /^\d+$/.test(item) ? Number(item) : item));
  });

/** A text property of a bug DTO: documented, optional, a string as BugTextParam reads it. */
export const BugText = (description: string, options: { keepNull?: boolean } = {}) =>
  applyDecorators(ApiPropertyOptional({ type: String, nullable: options.keepNull, description }), IsOptional(), IsString(), BugTextParam(options));

/** A list-of-texts property of a bug DTO, read as BugListParam reads it. */
export const BugList = (description: string, options: { commas?: boolean } = {}) =>
  applyDecorators(ApiPropertyOptional({ type: [String], description }), IsOptional(), IsArray(), IsString({ each: true }), BugListParam(options));

/** A Bugzilla boolean (`true`, `1`, `"True"` …). */
export const BugBoolean = (description: string) => applyDecorators(ApiPropertyOptional({ description }), IsOptional(), IsBoolean(), BooleanParam());
