import { Module, type DynamicModule, type Type } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { RpcDispatcher } from './rpc-dispatcher.service.js';
import { JsonRpcController, XmlRpcController } from './rpc.controller.js';

/**
 * Bugzilla 5.0's XML-RPC (/xmlrpc.cgi) and JSON-RPC (/jsonrpc.cgi) endpoints (docs/rpc.md), each served unless the
 * administrator turned it off (TRACKER_XMLRPC=off, TRACKER_JSONRPC=off): an endpoint turned off has no route, and
 * is answered as any unknown path (404, error 32614), as 5.0 is without its .cgi.
 */
@Module({})
export class RpcModule {
  static forRoot(config: Pick<AppConfig, 'rpc'>): DynamicModule {
    const controllers: Type[] = [...(config.rpc.xml ? [XmlRpcController] : []), ...(config.rpc.json ? [JsonRpcController] : [])];
    return { module: RpcModule, controllers, providers: controllers.length ? [RpcDispatcher] : [] };
  }
}
