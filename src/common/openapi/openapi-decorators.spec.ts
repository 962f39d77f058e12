import * as swagger from '@nestjs/swagger';
import { IsOptional, IsString, validateSync } from 'class-validator';
import * as deferred from './openapi-decorators.js';

/*
 * Twin classes, one decorated with @nestjs/swagger's decorators and one with the deferred ones, must carry the same
 * metadata once the deferred ones are applied: the OpenAPI document is made from nothing else.
 */
type Kit = Pick<typeof swagger, 'ApiBody' | 'ApiOperation' | 'ApiPropertyOptional' | 'ApiQuery' | 'ApiTags' | 'IntersectionType' | 'OmitType'>;

function classesOf(kit: Kit) {
  class Base {
    @kit.ApiPropertyOptional({ description: 'inherited', type: String })
    @IsOptional() @IsString()
    inherited?: string;
  }
  class Named extends Base {
    @kit.ApiPropertyOptional({ description: 'the name', type: String })
    @IsOptional() @IsString()
    name?: string;

    @kit.ApiPropertyOptional({ description: 'its tags', type: String, isArray: true })
    @IsOptional() @IsString({ each: true })
    tags?: string[];
  }
  class Other {
    @kit.ApiPropertyOptional({ description: 'the other', type: Number })
    other?: number;
  }
  class Mixed extends kit.IntersectionType(Other, Named) {}
  class Untagged extends kit.OmitType(Named, ['tags'] as const) {}
  @kit.ApiTags('things')
  class Controller {
    @kit.ApiOperation({ summary: 'Does it' })
    @kit.ApiQuery({ name: 'ids', required: false, type: 'integer', isArray: true })
    @kit.ApiBody({ type: Named })
    handle(): void {}
  }
  return { Named, Mixed, Untagged, Controller };
}

const PROPERTIES = ['inherited', 'name', 'tags', 'other'];

/** Every metadata entry of a class, its properties, its prototype's properties and its method, by key. */
function metadataOf(type: new () => unknown): Record<string, unknown> {
  const found: Record<string, unknown> = {};
  const read = (where: string, target: object, property?: string) => {
    for (const key of Reflect.getMetadataKeys(target, property as string)) {
      found[`${where}${property ? `.${property}` : ''} ${String(key)}`] = Reflect.getMetadata(key, target, property as string);
    }
  };
  read('class', type);
  for (const property of PROPERTIES) read('prototype', type.prototype as object, property);
  read('prototype', type.prototype as object);
  const handle = (type.prototype as { handle?: object }).handle;
  if (handle) read('handle', handle);
  return found;
}

/** Metadata naming the twin classes themselves differ only in which twin they name. */
const comparable = (metadata: Record<string, unknown>) => JSON.parse(JSON.stringify(metadata, (key, value: unknown) => (typeof value === 'function' ? `[class ${(value as { name: string }).name}]` : value)));

describe('the deferred OpenAPI decorators', () => {
  const direct = classesOf(swagger);
  const later = classesOf(deferred);

  it('put no OpenAPI metadata on a class until they are applied', () => {
    expect(Object.keys(metadataOf(later.Named)).filter((key) => key.includes('swagger'))).toEqual([]);
    expect(Object.keys(metadataOf(later.Controller)).filter((key) => key.includes('swagger'))).toEqual([]);
  });

  it('once applied, leave exactly the metadata of @nestjs/swagger own decorators and mapped types', () => {
    deferred.applyOpenApiDecorators(swagger);
    for (const name of ['Named', 'Mixed', 'Untagged', 'Controller'] as const) {
      const expected = comparable(metadataOf(direct[name]));
      expect(Object.keys(expected).some((key) => key.includes('swagger'))).toBe(true);
      expect(comparable(metadataOf(later[name]))).toEqual(expected);
    }
  });

  it('apply at once on a class defined after the document was made', () => {
    deferred.applyOpenApiDecorators(swagger);
    expect(comparable(metadataOf(classesOf(deferred).Mixed))).toEqual(comparable(metadataOf(classesOf(swagger).Mixed)));
  });

  it('keep the input rules through the mapped types, and leave out what OmitType omits', () => {
    const mixed = Object.assign(new later.Mixed(), { name: 7, other: 1 });
    expect(validateSync(mixed).map((error) => error.property)).toEqual(['name']);
    const untagged = Object.assign(new later.Untagged(), { tags: [7] });
    expect(validateSync(untagged)).toEqual([]);
    expect(validateSync(Object.assign(new later.Named(), { tags: [7] })).map((error) => error.property)).toEqual(['tags']);
  });
});
