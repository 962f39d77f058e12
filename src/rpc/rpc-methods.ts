import { Errors, TrackerError } from '../common/errors/index.js';

/** The REST request a 5.0 method is served by: the same route, so the same rules, field selection and errors. */
export interface RestCall {
  verb: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Under /rest, segments already escaped. */
  path: string;
}

export interface RpcMethod {
  verb: RestCall['verb'];
  /** The route's path from the call's params; undefined when a param it needs is missing. */
  path: (params: Record<string, unknown>) => string | undefined;
  /** The param 5.0 says is required when `path` finds none (error 50). */
  requires: string;
  /**
   * 5.0's methods that take several bugs where the REST route takes the one of its path (Bug.add_attachment):
   * the call is made once per bug and the answers' `ids` joined.
   */
  perBug?: boolean;
  /** 5.0's RPC answer where it is not the REST one (User.logout answers nothing). */
  answer?: (rest: unknown) => unknown;
}

/** The first value of a param given as a list or alone, as a path segment; undefined when absent or empty. */
function first(params: Record<string, unknown>, key: string): string | undefined {
  const raw = params[key];
  const value: unknown = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value === null || value === '' || typeof value === 'object') return undefined;
  return encodeURIComponent(String(value));
}

/** The first of ids, else of names: the path of the routes that take `{id_or_name}` plus ids and names. */
const idOrName = (params: Record<string, unknown>) => first(params, 'ids') ?? first(params, 'names');

const fixed = (path: string) => () => path;
/** `PREFIX/KEY[/OPTIONAL]SUFFIX`: the segment of `key` is required, the one of `optional` added when given. */
const under = (prefix: string, key: string, suffix = '', optional?: string) => (params: Record<string, unknown>) => {
  const segment = first(params, key);
  if (segment === undefined) return undefined;
  const more = optional === undefined ? undefined : first(params, optional);
  return `${prefix}/${segment}${more === undefined ? '' : `/${more}`}${suffix}`;
};
const byIdOrName = (prefix: string) => (params: Record<string, unknown>) => {
  const segment = idOrName(params);
  return segment === undefined ? undefined : `${prefix}/${segment}`;
};

function read(path: string, requires = ''): RpcMethod {
  return { verb: 'GET', path: fixed(path), requires };
}

/** A component by `ids` (`component/ID`) or by `names` of {product, component} (`component/PRODUCT/COMPONENT`). */
function componentPath(params: Record<string, unknown>): string | undefined {
  const byId = first(params, 'ids');
  if (byId !== undefined) return `component/${byId}`;
  const names: unknown = Array.isArray(params.names) ? (params.names as unknown[])[0] : params.names;
  if (!names || typeof names !== 'object') return undefined;
  const { product, component } = names as Record<string, unknown>;
  if (typeof product !== 'string' || typeof component !== 'string') return undefined;
  return `component/${encodeURIComponent(product)}/${encodeURIComponent(component)}`;
}

/**
 * Bugzilla 5.0's RPC methods of the resources Tracker serves, each with the REST route 5.0's own REST layer maps it
 * to (Bugzilla::WebService::Server::REST::Resources::*). A method absent here is unknown (-32601 / 100302).
 */
export const RPC_METHODS: Readonly<Record<string, RpcMethod>> = {
  'Bugzilla.version': read('version'),
  'Bugzilla.extensions': read('extensions'),
  'Bugzilla.timezone': read('timezone'),
  'Bugzilla.time': read('time'),
  'Bugzilla.parameters': read('parameters'),
  'Bugzilla.last_audit_time': read('last_audit_time'),

  'User.login': read('login'),
  'User.logout': { ...read('logout'), answer: () => null },
  'User.valid_login': read('valid_login'),
  'User.get': read('user'),
  'User.create': { verb: 'POST', path: fixed('user'), requires: '' },
  'User.update': { verb: 'PUT', path: byIdOrName('user'), requires: 'ids' },

  'Group.get': read('group'),
  'Group.create': { verb: 'POST', path: fixed('group'), requires: '' },
  'Group.update': { verb: 'PUT', path: byIdOrName('group'), requires: 'ids' },

  'Product.get': read('product'),
  'Product.get_accessible_products': read('product_accessible'),
  'Product.get_selectable_products': read('product_selectable'),
  'Product.get_enterable_products': read('product_enterable'),
  'Product.create': { verb: 'POST', path: fixed('product'), requires: '' },
  'Product.update': { verb: 'PUT', path: byIdOrName('product'), requires: 'ids' },

  'Component.create': { verb: 'POST', path: fixed('component'), requires: '' },
  'Component.update': { verb: 'PUT', path: componentPath, requires: 'ids' },
  'Component.delete': { verb: 'DELETE', path: componentPath, requires: 'ids' },

  'Classification.get': { verb: 'GET', path: byIdOrName('classification'), requires: 'ids' },
  'Classification.create': { verb: 'POST', path: fixed('classification'), requires: '' },
  'Classification.update': { verb: 'PUT', path: byIdOrName('classification'), requires: 'ids' },

  'Bug.get': { verb: 'GET', path: under('bug', 'ids'), requires: 'ids' },
  'Bug.search': read('bug'),
  'Bug.possible_duplicates': read('bug/possible_duplicates'),
  'Bug.create': { verb: 'POST', path: fixed('bug'), requires: '' },
  'Bug.update': { verb: 'PUT', path: under('bug', 'ids'), requires: 'ids' },
  'Bug.history': { verb: 'GET', path: under('bug', 'ids', '/history'), requires: 'ids' },
  'Bug.comments': { verb: 'GET', path: (params) => under('bug', 'ids', '/comment')(params) ?? under('bug/comment', 'comment_ids')(params), requires: 'ids' },
  'Bug.add_comment': { verb: 'POST', path: under('bug', 'id', '/comment'), requires: 'id' },
  'Bug.search_comment_tags': { verb: 'GET', path: under('bug/comment/tags', 'query'), requires: 'query' },
  'Bug.update_comment_tags': { verb: 'PUT', path: under('bug/comment', 'comment_id', '/tags'), requires: 'comment_id' },
  'Bug.attachments': { verb: 'GET', path: (params) => under('bug', 'ids', '/attachment')(params) ?? under('bug/attachment', 'attachment_ids')(params), requires: 'ids' },
  'Bug.add_attachment': { verb: 'POST', path: under('bug', 'ids', '/attachment'), requires: 'ids', perBug: true },
  'Bug.update_attachment': { verb: 'PUT', path: under('bug/attachment', 'ids'), requires: 'ids' },
  'Bug.fields': read('field/bug'),
  'Bug.legal_values': { verb: 'GET', path: under('field/bug', 'field', '/values', 'product_id'), requires: 'field' },

  'BugUserLastVisit.get': { verb: 'GET', path: under('bug_user_last_visit', 'ids'), requires: 'ids' },
  'BugUserLastVisit.update': { verb: 'POST', path: under('bug_user_last_visit', 'ids'), requires: 'ids' },

  'FlagType.get': { verb: 'GET', path: under('flag_type', 'product', '', 'component'), requires: 'product' },
  'FlagType.create': { verb: 'POST', path: fixed('flag_type'), requires: '' },
  'FlagType.update': { verb: 'PUT', path: byIdOrName('flag_type'), requires: 'ids' },
};

/** The REST call of a method and its params; a param the route's path needs and the call lacks is 5.0's error 50. */
export function restCallOf(name: string, method: RpcMethod, params: Record<string, unknown>): RestCall {
  const path = method.path(params);
  if (path === undefined) throw TrackerError.of(Errors.PARAM_REQUIRED, { function: name, param: method.requires });
  return { verb: method.verb, path };
}

/** Whether a method only reads: the ones JSON-RPC serves over GET (5.0's READ_ONLY lists). */
export function isReadOnly(method: RpcMethod): boolean {
  return method.verb === 'GET';
}
