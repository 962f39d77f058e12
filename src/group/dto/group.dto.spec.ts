import { toDto } from '../../common/http/dto.js';
import { RequestParams } from '../../common/http/request-params.js';
import { GroupInput } from './group.dto.js';

const input = (body: Record<string, unknown>) => toDto(GroupInput, RequestParams.merge({}, body), 'Group.update');
const coded = (code: number) => expect.objectContaining({ code });

describe('GroupInput (TextParam reads texts as textParam does)', () => {
  it('numbers and booleans become their strings; Bugzilla booleans are read; unknown keys dropped', () => {
    expect(input({ name: 7, description: true, is_active: 'False' })).toMatchObject({ name: '7', description: 'true', is_active: false });
    expect(input({ users: ['x'] })).not.toHaveProperty('users');
  });
  it('a list or an object where a text is meant is 53, never its first item', () => {
    expect(() => input({ name: ['a', 'b'] })).toThrow(coded(53));
    expect(() => input({ icon_url: { x: 1 } })).toThrow(coded(53));
  });
  it('null passes through (the editor reads it as empty, as before)', () => {
    expect(input({ user_regexp: null }).user_regexp).toBeNull();
  });
});
