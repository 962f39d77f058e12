import { ApiPropertyOptional } from '../../common/openapi/openapi-decorators.js';
import { IsArray, IsBoolean, IsOptional, IsString } from 'class-validator';
import { BooleanParam, ScalarParam, LooseParam, TextListParam } from '../../common/http/dto.js';

/**
 * The definition of a custom field (POST /rest/field/bug, beyond Bugzilla 5.0; decisions.md "Custom fields"), also
 * given by the admin command line as a plain object. Types only: parseCustomField checks the rest with Bugzilla's
 * codes (the command line's values never pass through class-validator, so it checks `type` and `sort_key` itself).
 */
export class CustomFieldInput {
  @ApiPropertyOptional({ description: 'Field name, lower-cased, `cf_` prepended when missing (letters, digits, underscores); required.' })
  @IsOptional() @IsString() @ScalarParam()
  name?: string;

  // A number or a name: parseCustomField reads both (invalid_customfield_type, 32000).
  @LooseParam({
    oneOf: [{ type: 'string' }, { type: 'integer' }],
    description: 'FREETEXT, SINGLE_SELECT, MULTI_SELECT, TEXTAREA, DATETIME, BUG_ID, DATE or INTEGER (`FIELD_TYPE_` prefix allowed), or its number; required.',
  })
  type?: string | number;

  @ApiPropertyOptional({ description: 'The label shown for the field; required.' })
  @IsOptional() @IsString() @ScalarParam()
  description?: string;

  @ApiPropertyOptional({ type: [String], description: 'Legal values of a select field (after the built-in `---`); select kinds only.' })
  @IsOptional() @IsArray() @IsString({ each: true }) @TextListParam()
  values?: string[];

  @ApiPropertyOptional({ description: 'A value is required on every bug (default false).' })
  @IsOptional() @IsBoolean() @BooleanParam()
  is_mandatory?: boolean;

  @ApiPropertyOptional({ description: 'Shown on the bug entry form (default false).' })
  @IsOptional() @IsBoolean() @BooleanParam()
  is_on_bug_entry?: boolean;

  // Checked by parseCustomField (52 naming Field.create), which the command line needs too.
  @LooseParam({ type: 'integer', description: 'Position among the fields (default: after every field).' })
  sort_key?: string | number;

  @ApiPropertyOptional({ description: 'Bug id fields only: the label of the reverse relation.' })
  @IsOptional() @IsString() @ScalarParam()
  reverse_desc?: string;
}
