import { ApiPropertyOptional } from '../../common/openapi/openapi-decorators.js';
import { IsBoolean, IsOptional, IsString } from 'class-validator';
import { BooleanParam, TextParam } from '../../common/http/dto.js';

/** POST /rest/api_key (beyond Bugzilla 5.0). Types only: the length limit (104) stays in AuthService. */
export class ApiKeyCreateInput {
  @ApiPropertyOptional({ description: 'What the key is for (255 characters at most).' })
  @IsOptional() @IsString() @TextParam()
  description?: string;
}

/** PUT /rest/api_key/{id} (beyond Bugzilla 5.0): revoke or restore, and describe. */
export class ApiKeyUpdateInput extends ApiKeyCreateInput {
  @ApiPropertyOptional({ description: 'true revokes the key (it stops authenticating), false restores it.' })
  @IsOptional() @IsBoolean() @BooleanParam()
  revoked?: boolean;
}
