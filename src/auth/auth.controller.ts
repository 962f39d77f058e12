import { Controller, Get, UseFilters } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '../common/openapi/openapi-decorators.js';
import { Ctx, type RequestContext } from '../common/http/request-context.js';
import { OpenWithRequireLogin, RequireLogin } from '../common/guards/access.decorators.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import { USER_FIELDS, UserReaderService } from '../user/user-reader.service.js';
import { AuthService } from './auth.service.js';
import { DeadTokenAnswer } from './dead-token.filter.js';

/**
 * Login, logout, valid_login and whoami take no body: their parameters are credentials, which RequestParams reads
 * in every spelling clients use (Tracker_*, Bugzilla_*, plain, headers), and `login` of valid_login; the @ApiQuery
 * decorators document them.
 */
@ApiTags('Authentication')
@Controller()
export class AuthController {
  constructor(private readonly auth: AuthService, private readonly userReader: UserReaderService) {}

  /**
   * The access guard has already checked login and password (lockout included) and made the caller; what is left
   * is to hand out a token, bound to the caller's address when restrict_login / Tracker_restrictlogin is set.
   */
  @Get('login')
  @OpenWithRequireLogin()
  @ApiOperation({ summary: 'Login: login, password, restrict_login → {id, token}' })
  @ApiQuery({ name: 'login', required: true, type: String, description: 'Login name (or Tracker_login / Bugzilla_login).' })
  @ApiQuery({ name: 'password', required: true, type: String, description: 'Password (or Tracker_password / Bugzilla_password).' })
  @ApiQuery({ name: 'restrict_login', required: false, type: Boolean, description: "true limits the token to the caller's IP address (or Tracker_restrictlogin)." })
  async login(@Ctx() ctx: RequestContext) {
    if (ctx.caller.credential.kind !== 'password') {
      const param = ctx.params.has('login') || ctx.params.has('Tracker_login') || ctx.params.has('Bugzilla_login') ? 'password' : 'login';
      throw TrackerError.of(Errors.PARAM_REQUIRED, { function: 'User.login', param });
    }
    const restrict = ctx.params.credentials({}).restrictLogin;
    const token = await this.auth.createLoginToken(ctx.caller.id, restrict ? ctx.ip : null, ctx.now);
    return { id: ctx.caller.id, token };
  }

  @Get('logout')
  @UseFilters(new DeadTokenAnswer({ result: null }))
  @ApiOperation({ summary: 'Logout: ends the login token of this request; without one, nothing happens' })
  @ApiQuery({ name: 'token', required: false, type: String, description: 'The login token to end (or Tracker_token / Bugzilla_token).' })
  async logout(@Ctx() ctx: RequestContext) {
    if (ctx.caller.credential.kind === 'token' && ctx.caller.credential.tokenId !== undefined) {
      await this.auth.endLoginToken(ctx.caller.credential.tokenId);
    }
    return { result: null };
  }

  @Get('valid_login')
  @UseFilters(new DeadTokenAnswer({ result: false }))
  @ApiOperation({ summary: 'Valid Login: login, token → whether the token is valid and belongs to that login' })
  @ApiQuery({ name: 'login', required: true, type: String, description: 'The login the token should belong to (error 50 without it).' })
  @ApiQuery({ name: 'token', required: false, type: String, description: 'The login token to check.' })
  validLogin(@Ctx() ctx: RequestContext) {
    const login = ctx.params.string('login');
    if (login === undefined) throw TrackerError.of(Errors.PARAM_REQUIRED, { function: 'User.valid_login', param: 'login' });
    const user = ctx.caller.user;
    return { result: !!user && user.login.toLowerCase() === login.trim().toLowerCase() };
  }

  @Get('whoami')
  @RequireLogin()
  @ApiOperation({ summary: "Who am I: the caller's own user object. Beyond Bugzilla 5.0. (BMO has it; the npm bugzilla client calls it first.)" })
  async whoami(@Ctx() ctx: RequestContext) {
    return ctx.selection.apply({ ...(await this.userReader.self(ctx.caller, ctx.selection)) }, USER_FIELDS);
  }
}
