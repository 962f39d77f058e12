import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { ClassConstructor } from 'class-transformer';
import { toDto } from './dto.js';
import { requestContext } from './request-context.js';
import type { RequestParams } from './request-params.js';

interface InputOptions {
  /** The parameters the DTO is filled from, when not the request's own (Update Component's `updates` object). */
  from?: (params: RequestParams) => RequestParams;
}

interface InputSpec extends InputOptions {
  type: ClassConstructor<object>;
  /** The Bugzilla function named in the error message (`Bug.create`). */
  functionName: string;
}

function inputReader(spec: InputSpec, ctx: ExecutionContext): () => object {
  const { params } = requestContext(ctx.switchToHttp().getRequest());
  return () => toDto(spec.type, spec.from ? spec.from(params) : params, spec.functionName);
}

const InputParam = createParamDecorator((spec: InputSpec, ctx: ExecutionContext) => inputReader(spec, ctx)());
const InputReaderParam = createParamDecorator(inputReader);

/**
 * `@Input(BugCreateInput, 'Bug.create') input: BugCreateInput`: the request's data as a typed DTO, built before
 * the handler runs, with toDto's Bugzilla encodings and errors (52, 53 naming the function).
 */
export const Input = <T extends object>(type: ClassConstructor<T>, functionName: string, options: InputOptions = {}): ParameterDecorator =>
  InputParam({ type, functionName, ...options });

/**
 * `@InputReader(BugUpdateInput, 'Bug.update') readInput: () => BugUpdateInput`: the same DTO, built when called,
 * for handlers that check their target (ids, names, a path id) before the values, as Bugzilla does: a request
 * wrong in both answers with the target's error.
 */
export const InputReader = <T extends object>(type: ClassConstructor<T>, functionName: string, options: InputOptions = {}): ParameterDecorator =>
  InputReaderParam({ type, functionName, ...options });
