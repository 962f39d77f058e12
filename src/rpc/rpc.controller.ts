import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiBody, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '../common/openapi/openapi-decorators.js';
import { Operational } from '../common/guards/access.decorators.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import { AppConfig } from '../config/app-config.js';
import { RpcDispatcher } from './rpc-dispatcher.service.js';
import { isReadOnly } from './rpc-methods.js';
import { faultResponse, methodResponse, parseMethodCall } from './xml-rpc.codec.js';
import { callOf, checkCallback, envelopeOfGet, envelopeOfPost, errorBody, JsonRpcError, resultBody, type JsonRpcEnvelope } from './json-rpc.envelope.js';

/** XMLRPC_CONTENT_TYPE_WHITELIST of 5.0. */
const XML_TYPES = new Set(['text/xml', 'application/xml']);
const JSON_RPC_TYPE = /^application\/json(-rpc)?(;.*)?$/i;

/**
 * Both endpoints are Operational: the request hook resolves no caller and takes no admission slot for them, since
 * each call is made as its REST request (RpcDispatcher), which does both.
 */
@ApiTags('XML-RPC and JSON-RPC')
@Controller()
export class XmlRpcController {
  constructor(private readonly dispatcher: RpcDispatcher) {}

  @Post('xmlrpc.cgi')
  @HttpCode(200)
  @Operational()
  @ApiOperation({ summary: 'XML-RPC (Bugzilla 5.0 clients: python-bugzilla, pybugz …): a methodCall of a 5.0 method (Bug.get, User.login …) answered as its REST route answers, in a methodResponse; errors are faults (faultCode, faultString) with status 200.' })
  @ApiBody({ description: 'An XML-RPC methodCall (Content-Type text/xml or application/xml).', schema: { type: 'string', example: '<?xml version="1.0"?><methodCall><methodName>Bugzilla.version</methodName><params><param><value><struct /></value></param></params></methodCall>' } })
  @ApiOkResponse({ description: 'A methodResponse, or a fault.', schema: { type: 'string' } })
  async call(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    void reply.header('content-type', 'text/xml');
    const contentType = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    try {
      if (!XML_TYPES.has(contentType)) throw TrackerError.of(Errors.XMLRPC_ILLEGAL_CONTENT_TYPE, { contentType: contentType || '(none)' });
      const call = parseMethodCall(typeof request.body === 'string' ? request.body : '');
      const method = this.dispatcher.methodOf(call.method);
      if (!method) throw TrackerError.of(Errors.UNKNOWN_METHOD, { method: call.method });
      const outcome = await this.dispatcher.call(method, call, request.ip);
      return 'fault' in outcome ? faultResponse(outcome.fault.code, outcome.fault.message) : methodResponse(outcome.result);
    } catch (error) {
      if (error instanceof TrackerError) return faultResponse(error.code, error.message);
      throw error;
    }
  }
}

@ApiTags('XML-RPC and JSON-RPC')
@Controller()
export class JsonRpcController {
  constructor(private readonly dispatcher: RpcDispatcher, private readonly config: AppConfig) {}

  @Post('jsonrpc.cgi')
  @HttpCode(200)
  @Operational()
  @ApiOperation({ summary: 'JSON-RPC 1.0/1.1 (Bugzilla 5.0): {method, params: [{…}], id} of a 5.0 method answered as its REST route answers, in {result, error, id}; errors in `error` with status 200; `callback` in the query for JSONP.' })
  @ApiBody({ description: 'A JSON-RPC request (Content-Type application/json or application/json-rpc).', schema: { type: 'object', example: { method: 'Bug.get', params: [{ ids: [1] }], id: 1 } } })
  @ApiOkResponse({ description: 'The JSON-RPC answer.', schema: { type: 'object' } })
  async post(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    return this.answer(request, reply, () => envelopeOfPost(typeof request.body === 'string' ? request.body : undefined));
  }

  @Get('jsonrpc.cgi')
  @Operational()
  @ApiOperation({ summary: 'JSON-RPC over GET (Bugzilla 5.0): method, params (JSON), id and callback in the query; only methods that change nothing; no cookies.' })
  @ApiQuery({ name: 'method', required: true, type: String, description: 'A 5.0 method that reads: Bug.get, Bug.search, Product.get …' })
  @ApiQuery({ name: 'params', required: false, type: String, description: 'The params as JSON: a list holding one object.' })
  @ApiQuery({ name: 'id', required: false, type: String, description: 'Echoed in the answer.' })
  @ApiQuery({ name: 'callback', required: false, type: String, description: 'JSONP: the answer comes as /**/callback(…) in text/javascript.' })
  @ApiOkResponse({ description: 'The JSON-RPC answer.', schema: { type: 'object' } })
  async get(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    return this.answer(request, reply, () => envelopeOfGet(request.query as Record<string, unknown>, this.config.urlbase));
  }

  private async answer(request: FastifyRequest, reply: FastifyReply, read: () => JsonRpcEnvelope): Promise<string> {
    void reply.header('content-type', 'application/json; charset=UTF-8');
    let envelope: JsonRpcEnvelope = { v11: false };
    try {
      envelope = read();
      const call = callOf(envelope, (name) => this.dispatcher.methodOf(name) !== undefined);
      const method = this.dispatcher.methodOf(call.method)!;
      if (request.method === 'POST') {
        // A POST's JSONP callback comes in the query, as on GET.
        const { callback } = request.query as Record<string, unknown>;
        if (callback !== undefined) checkCallback(envelope, typeof callback === 'string' ? callback : '');
        const contentType = request.headers['content-type'] ?? '';
        if (!JSON_RPC_TYPE.test(contentType)) throw JsonRpcError.of(envelope, TrackerError.of(Errors.ILLEGAL_CONTENT_TYPE, { contentType }));
      } else if (!isReadOnly(method)) {
        throw JsonRpcError.of(envelope, TrackerError.of(Errors.JSON_RPC_POST_ONLY, { method: call.method }));
      }
      const outcome = await this.dispatcher.call(method, call, request.ip);
      return 'fault' in outcome ? errorBody(envelope, outcome.fault.code, outcome.fault.message) : resultBody(envelope, outcome.result);
    } catch (error) {
      if (error instanceof JsonRpcError) return errorBody(error.envelope, error.code, error.message);
      if (error instanceof TrackerError) return errorBody(envelope, error.code, error.message);
      throw error;
    }
  }
}

