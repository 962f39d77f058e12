import { composeFlagRequestMail, flagRequestsOf } from './flag-request.mail.js';
import type { UserRecord } from '../user/user.service.js';

const user = (id: number, login: string, realName = ''): UserRecord =>
  ({ id, login, email: login, realName, cryptpassword: null, loginDeniedText: '', emailEnabled: true });

describe('flag request mail (Flag::notify)', () => {
  it('reads the requests a change makes from its flagtypes.name entry, not those already standing', () => {
    const changes = [
      { field: 'flagtypes.name', removed: 'review?(a@x.org)', added: 'review?(a@x.org), approval?(b@x.org), qa+, needinfo?' },
      { field: 'cc', removed: '', added: 'b@x.org' },
    ];
    expect(flagRequestsOf({ changes })).toEqual([{ flag: 'approval', requestee: 'b@x.org' }]);
    expect(flagRequestsOf({ changes: [{ field: 'flagtypes.name', removed: 'review?(a@x.org)', added: 'review+' }] })).toEqual([]);
  });

  it('tells the requestee who asks for what, on which bug', () => {
    const mail = composeFlagRequestMail(
      { bugId: 7, summary: 'Crash', product: 'P', component: 'C' }, { flag: 'review', requestee: 'b@x.org' }, user(2, 'b@x.org', 'Bee'),
      { changer: user(1, 'a@x.org'), urlbase: 'https://t.example/', mailfrom: 'tracker', emailsuffix: '' },
    );
    expect(mail).toEqual({
      to: 'b@x.org',
      subject: 'review requested: [Bug 7] Crash',
      body: 'a@x.org has asked Bee <b@x.org> for review:\nBug 7: Crash\nhttps://t.example/show_bug.cgi?id=7\n',
      headers: {
        From: 'tracker@t.example', 'X-Tracker-Type': 'request', 'X-Tracker-Flag-Requestee': 'b@x.org', 'X-Tracker-Who': 'a@x.org',
        'X-Tracker-Product': 'P', 'X-Tracker-Component': 'C',
      },
    });
  });
});
