import { ApiPropertyOptional } from '../../common/openapi/openapi-decorators.js';
import { IsBoolean, IsOptional, IsString } from 'class-validator';
import { BooleanParam, TextListParam, TextParam } from '../../common/http/dto.js';

/**
 * POST /rest/webhook and PUT /rest/webhook/{id} (beyond Bugzilla 5.0). Create requires name, url and events and
 * answers {id, secret}; on update every field is optional, and a product or component of '' (or Any) removes that
 * filter; a new format without events keeps the events, said in its words.
 */
export class WebhookInput {
  @ApiPropertyOptional({ description: 'What the webhook is for (255 characters at most).' })
  @IsOptional() @IsString() @TextParam()
  name?: string;

  @ApiPropertyOptional({ description: 'Where events are POSTed: an http or https URL (no loopback or private address).' })
  @IsOptional() @IsString() @TextParam()
  url?: string;

  @ApiPropertyOptional({ description: "What the deliveries look like: tracker (the default: the bug as Get Bug shows it) or bmo (bugzilla.mozilla.org's webhook payload)." })
  @IsOptional() @IsString() @TextParam()
  format?: string;

  @ApiPropertyOptional({ type: [String], description: 'Which events (at least one): create, modify, comment, attachment (tracker format); create, change, comment, attachment, attachment_change (bmo format).' })
  @IsOptional() @IsString({ each: true }) @TextListParam({ commas: true })
  events?: string[];

  @ApiPropertyOptional({ description: 'Only bugs of this product (by name); Any or empty: every product.' })
  @IsOptional() @IsString() @TextParam()
  product?: string;

  @ApiPropertyOptional({ description: 'Only bugs of this component of the product (by name); Any or empty: every component.' })
  @IsOptional() @IsString() @TextParam()
  component?: string;

  @ApiPropertyOptional({ description: "A header sent with every delivery for the receiver's authentication (BMO's api_key_header, e.g. X-Api-Key); '' removes it." })
  @IsOptional() @IsString() @TextParam()
  api_key_header?: string;

  @ApiPropertyOptional({ description: "That header's value (BMO's api_key_value); never shown again." })
  @IsOptional() @IsString() @TextParam()
  api_key_value?: string;

  @ApiPropertyOptional({ description: 'false stops deliveries (and the queueing of events); true resumes them, draining any backlog in order.' })
  @IsOptional() @IsBoolean() @BooleanParam()
  enabled?: boolean;
}
